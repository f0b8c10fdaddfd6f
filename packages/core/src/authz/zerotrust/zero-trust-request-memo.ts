import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ZeroTrustResolution } from "./zero-trust-resolution.js";

/**
 * The exchange attribute holding the zero-trust resolution the `request` checkpoint made for this
 * request's caller (a RememberedZeroTrust), which the authorization (the PDP, `zeroTrustChecked`
 * rules) reads instead of resolving again: zero trust is resolved once per request. Written and read
 * inline, on the hot path, without a helper call.
 */
export const ZERO_TRUST_RESOLUTION_ATTRIBUTE = "platform.zeroTrust.resolution";

/**
 * A request's zero-trust resolution and the authentication it was made for: a sign-in during the
 * request makes another caller, who is resolved afresh.
 */
export interface RememberedZeroTrust {
  readonly authentication: Authentication;
  readonly resolution: ZeroTrustResolution;
}
