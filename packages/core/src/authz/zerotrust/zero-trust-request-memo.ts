import type { Authentication } from "../../identity/authentication/authentication.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { ZeroTrustResolution } from "./zero-trust-resolution.js";

const MEMO = "platform.zeroTrust.resolution";

interface Memo {
  readonly authentication: Authentication;
  readonly resolution: ZeroTrustResolution;
}

/**
 * Keeps the zero-trust resolution the `request` checkpoint made for this request's caller, so that
 * the authorization (the PDP, `zeroTrustChecked` rules) reads it instead of resolving again: zero
 * trust is resolved once per request.
 */
export function rememberZeroTrust(
  exchange: HttpExchange,
  authentication: Authentication,
  resolution: ZeroTrustResolution,
): void {
  const memo: Memo = { authentication, resolution };
  exchange.attributes.set(MEMO, memo);
}

/**
 * The resolution remembered for this request, if it was made for this very authentication (a
 * sign-in during the request makes another caller: it is resolved afresh).
 */
export function rememberedZeroTrust(
  exchange: HttpExchange,
  authentication: Authentication,
): ZeroTrustResolution | undefined {
  const memo = exchange.attributes.get(MEMO) as Memo | undefined;
  return memo !== undefined && memo.authentication === authentication ? memo.resolution : undefined;
}
