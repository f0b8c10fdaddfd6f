import type { Authentication } from "../../identity/authentication/authentication.js";
import type { PlatformErrorCode } from "../../kernel/error-code-table.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { ZeroTrustAction } from "../zerotrust/zero-trust-action.js";

/** What zero trust says about one caller, as the PDP needs it. */
export interface ZeroTrustVerdict {
  /** The caller's action; undefined when no analysis exists. */
  readonly action: ZeroTrustAction | undefined;
  readonly mode: "ENFORCE" | "SHADOW";
  /** The refusal the action calls for (BLOCK, ESCALATE, an unmet CHALLENGE...), if any. */
  readonly denial?: {
    readonly code: PlatformErrorCode;
    readonly reason: string;
    /** Client-safe text. */
    readonly message: string;
    /** Set for CHALLENGE: a factor completed within this many milliseconds clears it. */
    readonly stepUp?: { readonly maxAgeMs: number };
    /** The security decision behind the refusal, which the answer names (see ZeroTrustDenial). */
    readonly decisionId?: string;
  };
}

/** Who zero trust is asked about: built once per request and passed to both calls. */
export interface ZeroTrustQuery {
  readonly authentication: Authentication;
  /** A non-secret handle of the caller's session, when there is one. */
  readonly sessionId?: string;
}

/**
 * The PDP's view of zero trust. `cached` answers from memory without awaiting (undefined: ask
 * `evaluate` with the same query object); both answer null when zero trust does not evaluate this
 * request (disabled, anonymous, not sampled).
 */
export interface ZeroTrustEvaluator {
  /**
   * The verdict from the resolution this request already made for this caller (the `request`
   * checkpoint's), or undefined when there is none: then `cached`/`evaluate` as usual.
   */
  remembered?(authentication: Authentication, exchange: HttpExchange): ZeroTrustVerdict | null | undefined;
  cached(query: ZeroTrustQuery): ZeroTrustVerdict | null | undefined;
  evaluate(query: ZeroTrustQuery): Promise<ZeroTrustVerdict | null>;
}
