import type { Authentication } from "../../identity/authentication/authentication.js";
import type { Clock } from "../../kernel/clock.js";
import type { ZeroTrustActionResolver } from "../zerotrust/zero-trust-action-resolver.js";
import type { ZeroTrustResolution } from "../zerotrust/zero-trust-resolution.js";
import {
  type RememberedZeroTrust,
  ZERO_TRUST_RESOLUTION_ATTRIBUTE,
} from "../zerotrust/zero-trust-request-memo.js";
import { zeroTrustDenial } from "../zerotrust/zero-trust-response.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { ZeroTrustEvaluator, ZeroTrustQuery, ZeroTrustVerdict } from "./zero-trust-evaluator.js";

/**
 * The PDP's zero-trust view over the ZeroTrustActionResolver: a hot-path hit costs a Map lookup, and
 * a verdict that denies nothing is cached per resolution object, so an ALLOW caller allocates
 * nothing per request. Denials are computed per request (a CHALLENGE depends on the caller's factors).
 * A request whose `request` checkpoint resolved its caller already is answered from that resolution.
 */
export class ResolverZeroTrustEvaluator implements ZeroTrustEvaluator {
  private readonly plain = new WeakMap<ZeroTrustResolution, ZeroTrustVerdict>();

  constructor(
    private readonly resolver: ZeroTrustActionResolver,
    private readonly clock: Clock,
  ) {}

  remembered(authentication: Authentication, exchange: HttpExchange): ZeroTrustVerdict | null | undefined {
    const remembered = exchange.attributes.get(ZERO_TRUST_RESOLUTION_ATTRIBUTE) as
      | RememberedZeroTrust
      | undefined;
    // Only the caller it was made for: a sign-in during the request is resolved afresh.
    if (remembered === undefined || remembered.authentication !== authentication) return undefined;
    // Sampling (`reuse`) can only change the answer below a rate of 1: then a PDP lookup may be skipped.
    const resolution =
      this.resolver.settings.samplingRate >= 1
        ? remembered.resolution
        : this.resolver.reuse({ authentication }, remembered.resolution);
    // The usual answer, inline: an evaluated ALLOW denies nothing, its verdict is cached per resolution.
    const plain =
      resolution.evaluated && resolution.action === "ALLOW" ? this.plain.get(resolution) : undefined;
    return plain ?? this.verdict(resolution, authentication);
  }

  cached(query: ZeroTrustQuery): ZeroTrustVerdict | null | undefined {
    // The same query object goes to `resolve` on a miss, so sampling draws once per request.
    const resolution = this.resolver.resolveCached(query);
    return resolution === undefined ? undefined : this.verdict(resolution, query.authentication);
  }

  async evaluate(query: ZeroTrustQuery): Promise<ZeroTrustVerdict | null> {
    return this.verdict(await this.resolver.resolve(query), query.authentication);
  }

  private verdict(resolution: ZeroTrustResolution, authentication: Authentication): ZeroTrustVerdict | null {
    if (!resolution.evaluated) return null;
    // An ALLOW denies nothing (zeroTrustDenial's first case), asked without a call.
    const denial =
      resolution.action === "ALLOW"
        ? undefined
        : zeroTrustDenial(resolution, authentication, this.resolver.settings);
    if (!denial) {
      let verdict = this.plain.get(resolution);
      if (!verdict) {
        verdict = Object.freeze({ action: resolution.action, mode: resolution.mode });
        this.plain.set(resolution, verdict);
      }
      return verdict;
    }
    const since = resolution.record?.at;
    return {
      action: resolution.action,
      mode: resolution.mode,
      denial: {
        code: denial.code,
        reason: denial.reason,
        message: denial.message,
        ...(denial.decisionId === undefined ? {} : { decisionId: denial.decisionId }),
        ...(denial.stepUp
          ? { stepUp: { maxAgeMs: since === undefined ? 0 : Math.max(0, this.clock.now() - since) } }
          : {}),
      },
    };
  }
}
