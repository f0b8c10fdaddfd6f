import {
  answersWithoutThrowing,
  SUBJECT_GOES_ON,
  type SubjectCheckpoint,
  type SubjectStatusCheck,
  type SubjectStatusQuery,
} from "../../identity/authentication/subject-status-check.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
import type { ZeroTrustResolveInput } from "./zero-trust-resolution.js";
import { ZERO_TRUST_AUDIT } from "./zero-trust-audit.js";
import { decisionIdOf } from "./zero-trust-decision-reference.js";
import { type RememberedZeroTrust, ZERO_TRUST_RESOLUTION_ATTRIBUTE } from "./zero-trust-request-memo.js";
import { zeroTrustDenial, zeroTrustDenialMessage } from "./zero-trust-response.js";
import type { ZeroTrustResolution } from "./zero-trust-resolution.js";

/** Checkpoints where the caller's current session counts; a sign-in or a refresh starts from none that does. */
const SESSION_CHECKPOINTS: ReadonlySet<SubjectCheckpoint> = new Set([
  "step-up",
  "me",
  "request",
  "credential",
]);

/**
 * Checkpoints that judge the resolution the request's `request` checkpoint made for the same caller
 * instead of resolving again (decision zero-trust.md#checkpoints-reuse-the-requests-resolution).
 */
const REUSING_CHECKPOINTS: ReadonlySet<SubjectCheckpoint> = new Set(["me"]);

/** Options of the ZeroTrustSubjectStatusCheck. */
export interface ZeroTrustSubjectStatusCheckOptions {
  resolver: ZeroTrustActionResolver;
  /** Receives `zerotrust.checkpoint.denied` (ENFORCE) or `zerotrust.checkpoint.shadow` (SHADOW). */
  audit: AuditSink;
  /**
   * The request's session handle (looked up as `session:<handle>`); absent: user records only. A
   * session is a cookie (sessionHandleOf): it is asked only when the request carries a Cookie header.
   * It answers the handle itself when it is known at once (undefined: no session), else a promise.
   */
  sessionHandle?: (exchange: HttpExchange) => string | undefined | Promise<string | undefined>;
}

/**
 * Zero trust at identity's checkpoints. A BLOCK (a user BLOCK, or a session BLOCK of the caller's
 * session at `step-up`, `me` and `request`, by the resolver's precedence and TTLs) refuses with 403
 * ZERO_TRUST_BLOCKED (naming the security decision behind it, `decisionId`, when one wrote it): no
 * session or token is issued at `sign-in`, the refresh token is not spent (the
 * token endpoint revokes its family), no step-up starts or completes, `/api/me` does not answer, and no
 * authenticated request but logout goes past the security context (`request`, on every chain).
 * CHALLENGE, ESCALATE and PENDING_ANALYSIS never refuse here: they are answered on the protected URLs,
 * and signing in, refreshing and stepping up are how a client gets to satisfy a CHALLENGE. The one
 * exception is `credential` (adding or removing a passkey): there an unmet CHALLENGE refuses with
 * MFA_CHALLENGE_REQUIRED and an ESCALATE with ZERO_TRUST_REVIEW_REQUIRED, so a held account cannot
 * enrol the factor that would clear its own CHALLENGE (a stolen password plus the thief's passkey). Sampling
 * never skips a checkpoint; a store outage lets the user through unless this process still holds the
 * user's BLOCK (stale-if-error). SHADOW mode audits what it would have refused and lets it through.
 * The `request` checkpoint keeps its resolution on the exchange (ZERO_TRUST_RESOLUTION_ATTRIBUTE);
 * `me` judges that one for the same caller instead of resolving again (resolved once per request).
 */
export class ZeroTrustSubjectStatusCheck implements SubjectStatusCheck {
  readonly id = "zero-trust";

  constructor(private readonly o: ZeroTrustSubjectStatusCheckOptions) {}

  /**
   * Not an async function: a hot-path hit, or the `me` checkpoint reusing the request's resolution,
   * answers SUBJECT_GOES_ON, settled (every authenticated request passes here). Never throws:
   * a refusal is a rejection (so the gate may ask it directly: `answersWithoutThrowing`).
   */
  check(query: SubjectStatusQuery): Promise<void> {
    try {
      const { checkpoint, authentication, exchange } = query;
      if (REUSING_CHECKPOINTS.has(checkpoint)) {
        const remembered = exchange.attributes.get(ZERO_TRUST_RESOLUTION_ATTRIBUTE) as
          | RememberedZeroTrust
          | undefined;
        // Only for the caller it was made for: a sign-in during the request is resolved afresh.
        if (remembered !== undefined && remembered.authentication === authentication) {
          this.settle(query, remembered.resolution);
          return SUBJECT_GOES_ON;
        }
      }
      if (SESSION_CHECKPOINTS.has(checkpoint) && exchange.header("cookie") !== undefined) {
        const sessionId = this.o.sessionHandle?.(exchange);
        // Known at once (the security context loaded the session): settled without a `then`.
        if (typeof sessionId === "string") return this.resolveAndSettle(query, sessionId) ?? SUBJECT_GOES_ON;
        if (sessionId !== undefined) return sessionId.then((id) => this.resolveAndSettle(query, id));
      }
      // resolveAndSettle without a session, inline: every bearer request passes here.
      const input: ZeroTrustResolveInput =
        checkpoint === "sign-in"
          ? { authentication, unsampled: true, quiet: true }
          : { authentication, unsampled: true };
      const resolution = this.o.resolver.resolveCached(input);
      if (resolution === undefined) return this.o.resolver.resolve(input).then((r) => this.settle(query, r));
      if (checkpoint === "request") {
        const remembered: RememberedZeroTrust = { authentication, resolution };
        exchange.attributes.set(ZERO_TRUST_RESOLUTION_ATTRIBUTE, remembered);
      }
      if (resolution.action === "BLOCK" || checkpoint === "credential") this.judge(query, resolution);
      return SUBJECT_GOES_ON;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // A hot-path hit is settled at once (undefined: nothing to wait for) without `resolve` (its own
  // first step); a miss goes on to the store.
  private resolveAndSettle(
    query: SubjectStatusQuery,
    sessionId: string | undefined,
  ): Promise<void> | undefined {
    const input: ZeroTrustResolveInput = {
      authentication: query.authentication,
      unsampled: true,
      ...(query.checkpoint === "sign-in" ? { quiet: true as const } : {}),
      ...(sessionId === undefined ? {} : { sessionId }),
    };
    const cached = this.o.resolver.resolveCached(input);
    if (cached === undefined) return this.o.resolver.resolve(input).then((r) => this.settle(query, r));
    this.settle(query, cached);
    return undefined;
  }

  // The request's one resolution (at `request`), which the authorization and `me` read; then judged
  // when there is something to judge (a BLOCK anywhere, any hold at `credential`).
  private settle(query: SubjectStatusQuery, resolution: ZeroTrustResolution): void {
    if (query.checkpoint === "request") {
      const remembered: RememberedZeroTrust = { authentication: query.authentication, resolution };
      query.exchange.attributes.set(ZERO_TRUST_RESOLUTION_ATTRIBUTE, remembered);
    }
    if (resolution.action === "BLOCK" || query.checkpoint === "credential") this.judge(query, resolution);
  }

  // Refuses (throws) what this checkpoint refuses; audits a BLOCK (denied, or shadow).
  private judge(
    { checkpoint, authentication, exchange }: SubjectStatusQuery,
    resolution: ZeroTrustResolution,
  ): void {
    if (checkpoint === "credential") this.refuseHeldCredentialChange(resolution, authentication);
    if (resolution.action !== "BLOCK") return;
    const shadow = resolution.mode === "SHADOW";
    const record = resolution.record;
    try {
      this.o.audit.record({
        type: shadow ? ZERO_TRUST_AUDIT.checkpointShadow : ZERO_TRUST_AUDIT.checkpointDenied,
        outcome: shadow ? "success" : "denied",
        principal: authentication.username,
        remoteAddress: exchange.remoteAddress,
        data: {
          checkpoint,
          userId: authentication.userId,
          action: "BLOCK",
          ...(record === undefined
            ? {}
            : { subject: record.subject, source: record.source, reason: record.reason ?? null }),
          ...(resolution.stale ? { stale: true } : {}),
        },
      });
    } catch {
      // The refusal stands whatever the sink does.
    }
    if (shadow) return;
    const decisionId = decisionIdOf(record);
    throw new PlatformError(
      "ZERO_TRUST_BLOCKED",
      zeroTrustDenialMessage("ZERO_TRUST_BLOCKED", decisionId),
      decisionId === undefined ? {} : { details: { decisionId } },
    );
  }

  /** At `credential`: an unmet CHALLENGE or an ESCALATE refuses (in ENFORCE mode), as the PDP would. */
  private refuseHeldCredentialChange(
    resolution: ZeroTrustResolution,
    authentication: SubjectStatusQuery["authentication"],
  ): void {
    if (resolution.mode === "SHADOW") return;
    if (resolution.action !== "CHALLENGE" && resolution.action !== "ESCALATE") return;
    const denial = zeroTrustDenial(resolution, authentication, this.o.resolver.settings);
    if (!denial) return;
    throw new PlatformError(
      denial.code,
      denial.message,
      denial.decisionId === undefined ? {} : { details: { decisionId: denial.decisionId } },
    );
  }
}

// The check never throws synchronously and always answers a promise: the gate asks it directly.
answersWithoutThrowing(ZeroTrustSubjectStatusCheck.prototype.check);
