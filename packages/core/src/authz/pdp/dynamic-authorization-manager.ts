import type { Authentication } from "../../identity/authentication/authentication.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { correlated } from "../../identity/events/correlated.js";
import { stepUpChallenge } from "../../mfa/step-up/step-up-challenge.js";
import type { EvaluationContext } from "../expression/evaluation-context.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import type { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import type { PolicyRetrievalPoint } from "../policy/policy-retrieval-point.js";
import type { CombiningAlgorithm } from "./combining-algorithm.js";
import { CompiledPolicySet, type PolicySetReport } from "./compiled-policy-set.js";
import type { ZeroTrustAction } from "../zerotrust/zero-trust-action.js";
import type { PolicyDecision, PolicyTrailEntry } from "./policy-decision.js";
import type { UrlAuthorizationManager } from "./url-authorization-manager.js";
import {
  decideCombined,
  decideFirstApplicable,
  explainDecision,
  type RequestFacts,
  type RequestTarget,
} from "./policy-evaluation.js";
import type { ZeroTrustEvaluator, ZeroTrustQuery, ZeroTrustVerdict } from "./zero-trust-evaluator.js";

/** Options of the DynamicAuthorizationManager. */
export interface DynamicAuthorizationManagerOptions {
  prp: PolicyRetrievalPoint;
  compiler: ExpressionCompiler;
  converter: PolicyExpressionConverter;
  /** Where denials and evaluation errors go (wrap a slow sink in a DecisionAuditQueue). */
  audit: AuditSink;
  /**
   * Asked before a denial's audit event is built: false skips the work under overload (pass the
   * DecisionAuditQueue's `accepts`, which counts the drop). Default: always build.
   */
  auditAdmits?: () => boolean;
  clock: Clock;
  algorithm: CombiningAlgorithm;
  /** The answer when no URL policy matches (`platform.policy.no-match-decision`; true by default). */
  noMatchGranted: boolean;
  /** IANA zone for time conditions. */
  timeZone: string;
  zeroTrust?: ZeroTrustEvaluator;
  /** The request's session id, for session-scoped zero-trust actions. */
  sessionId?: (exchange: HttpExchange) => string | undefined | Promise<string | undefined>;
  logger?: Logger;
}

/**
 * The default UrlAuthorizationManager, the PEP of dynamic authorization (`anyRequest().access(manager)`): decides requests against the
 * database's URL policies, compiled once and indexed by path. `initialize()` loads them at start-up,
 * `reload()` rebuilds a complete new set off the request path and swaps it in one assignment, so
 * requests in flight finish on the set they started with.
 */
export class DynamicAuthorizationManager implements UrlAuthorizationManager {
  private current: CompiledPolicySet;
  private rebuilding: Promise<PolicySetReport> | undefined;
  private again = false;
  private lastReport: PolicySetReport | undefined;
  private readonly scratch: { -readonly [K in keyof EvaluationContext]: EvaluationContext[K] };
  private readonly counts = { granted: 0, denied: 0 };

  constructor(private readonly o: DynamicAuthorizationManagerOptions) {
    this.current = CompiledPolicySet.empty(o.algorithm);
    this.scratch = {
      authentication: undefined,
      remoteAddress: "",
      now: 0,
      timeZone: o.timeZone,
      zeroTrustAction: undefined,
    };
  }

  /** Loads every URL policy through the PRP (start-up). */
  initialize(): Promise<PolicySetReport> {
    return this.reload();
  }

  /**
   * Rebuilds from the PRP and swaps atomically. Calls during a rebuild are coalesced into one more
   * rebuild after it, so the last change is always loaded. A failing PRP keeps the old set and rejects.
   */
  reload(): Promise<PolicySetReport> {
    if (this.rebuilding) {
      this.again = true;
      return this.rebuilding.then(() => this.reload());
    }
    this.rebuilding = this.rebuild().finally(() => {
      this.rebuilding = undefined;
    });
    return this.rebuilding;
  }

  /** How many requests were granted and denied since start (the metrics endpoint reads it). */
  decisionCounts(): { readonly granted: number; readonly denied: number } {
    return { granted: this.counts.granted, denied: this.counts.denied };
  }

  /** The report of the last completed build. */
  get report(): PolicySetReport | undefined {
    return this.lastReport;
  }

  /** The set decisions use now (for explanations and tests). */
  get policySet(): CompiledPolicySet {
    return this.current;
  }

  /**
   * Decides a request (the AuthorizationManager contract). Never rejects for a policy's sake. Answers
   * the decision itself when nothing had to be looked up (no caller, no zero trust, the request's
   * remembered zero-trust resolution, a cached verdict without a session lookup), a promise otherwise.
   */
  check(
    authentication: Authentication | undefined,
    exchange: HttpExchange,
  ): PolicyDecision | Promise<PolicyDecision> {
    const zeroTrust = this.o.zeroTrust;
    if (!authentication || !zeroTrust) return this.decideRequest(authentication, exchange, null);
    // Zero trust once per request: the `request` checkpoint's resolution, when it made one.
    const remembered = zeroTrust.remembered?.(authentication, exchange);
    if (remembered !== undefined) return this.decideRequest(authentication, exchange, remembered);
    const session = this.o.sessionId?.(exchange);
    if (session instanceof Promise) {
      return session.then(async (sessionId) => {
        const query: ZeroTrustQuery = sessionId ? { authentication, sessionId } : { authentication };
        const verdict = zeroTrust.cached(query);
        return this.decideRequest(
          authentication,
          exchange,
          verdict !== undefined ? verdict : await zeroTrust.evaluate(query),
        );
      });
    }
    // The hot path: a cached verdict and no session lookup decide without a single await.
    const query: ZeroTrustQuery = session ? { authentication, sessionId: session } : { authentication };
    const cached = zeroTrust.cached(query);
    if (cached !== undefined) return this.decideRequest(authentication, exchange, cached);
    return zeroTrust.evaluate(query).then((verdict) => this.decideRequest(authentication, exchange, verdict));
  }

  /** Decides synchronously from known facts and a zero-trust verdict (check() minus the lookups). */
  decide(facts: RequestFacts, verdict: ZeroTrustVerdict | null): PolicyDecision {
    return this.decideRequest(facts.authentication, facts, verdict);
  }

  private decideRequest(
    authentication: Authentication | undefined,
    request: RequestTarget,
    verdict: ZeroTrustVerdict | null,
  ): PolicyDecision {
    const denial = verdict?.denial;
    if (denial && verdict.mode === "ENFORCE") {
      const decision: PolicyDecision = {
        granted: false,
        reason: `zero trust: ${denial.reason}`,
        code: denial.code,
        message: denial.message,
        ...(denial.decisionId === undefined ? {} : { details: { decisionId: denial.decisionId } }),
        zeroTrustAction: verdict.action,
        audited: true,
        ...(denial.stepUp ? { stepUp: stepUpChallenge(denial.stepUp.maxAgeMs, denial.decisionId) } : {}),
      };
      this.counts.denied++;
      this.auditDenied(authentication, request, decision, verdict);
      return decision;
    }
    if (denial) this.auditShadow(authentication, request, verdict, "zero-trust action");
    const set = this.current;
    const decide = set.algorithm === "FIRST_APPLICABLE" ? decideFirstApplicable : decideCombined;
    // One context object per manager, refilled per decision: evaluation is synchronous and the
    // compiled closures never keep it, so no decision can see another's facts.
    const ctx = this.scratch;
    ctx.authentication = authentication;
    ctx.remoteAddress = request.remoteAddress;
    ctx.now = this.o.clock.now();
    ctx.zeroTrustAction = verdict?.action;
    let outcome = decide(set, request, ctx, this.o.noMatchGranted);
    ctx.authentication = undefined; // keep no caller alive between requests
    if (outcome.error) this.auditError(authentication, request, outcome);
    if (!outcome.decision.granted && verdict?.mode === "SHADOW" && outcome.usedZeroTrust) {
      // SHADOW never denies on AI conditions: decide again as if the AI had said ALLOW.
      const relaxed = decide(
        set,
        request,
        { ...ctx, authentication, zeroTrustAction: "ALLOW" },
        this.o.noMatchGranted,
      );
      if (relaxed.decision.granted) {
        this.auditShadow(authentication, request, verdict, outcome.decision.reason);
        outcome = relaxed;
      }
    }
    // Decisions are shared, frozen objects (built with the policy set): nothing allocated here.
    if (outcome.decision.granted) this.counts.granted++;
    else {
      this.counts.denied++;
      this.auditDenied(authentication, request, outcome.decision, verdict);
    }
    return outcome.decision;
  }

  /**
   * What the current set decides for `facts` as a subject with the given zero-trust action, and the
   * trail of every policy whose target matched: the simulator. Nothing is audited.
   */
  explain(
    facts: RequestFacts,
    zeroTrustAction: ZeroTrustAction | undefined,
  ): { decision: PolicyDecision; trail: PolicyTrailEntry[]; algorithm: CombiningAlgorithm } {
    const set = this.current;
    const ctx: EvaluationContext = {
      authentication: facts.authentication,
      remoteAddress: facts.remoteAddress,
      now: this.o.clock.now(),
      timeZone: this.o.timeZone,
      zeroTrustAction,
    };
    return explainDecision(set, facts, ctx, this.o.noMatchGranted);
  }

  private async rebuild(): Promise<PolicySetReport> {
    do {
      this.again = false;
      const policies = await this.o.prp.findUrlPolicies();
      const { set, report } = CompiledPolicySet.build(policies, {
        compiler: this.o.compiler,
        converter: this.o.converter,
        algorithm: this.o.algorithm,
      });
      this.current = set;
      this.lastReport = report;
      this.logReport(report);
    } while (this.again);
    return this.lastReport!;
  }

  private logReport(report: PolicySetReport): void {
    const log = this.o.logger;
    if (!log) return;
    log.info("authz.policies.loaded", {
      loaded: report.loaded,
      skipped: report.skipped,
      buildMs: report.buildMs,
    });
    // One line each, with the first few: thousands of lines per reload would drown the log.
    if (report.shadowed.length > 0) {
      log.warn("authz.policies.shadowed", {
        count: report.shadowed.length,
        first: report.shadowed.slice(0, 5),
      });
    }
    if (report.broken.length > 0) {
      log.warn("authz.policies.broken", { count: report.broken.length, first: report.broken.slice(0, 5) });
    }
  }

  private auditDenied(
    authentication: Authentication | undefined,
    facts: RequestTarget,
    decision: PolicyDecision,
    verdict: ZeroTrustVerdict | null,
  ): void {
    if (this.o.auditAdmits && !this.o.auditAdmits()) return; // overload: counted, not built
    this.o.audit.record({
      type: "authz.denied",
      outcome: "denied",
      principal: authentication?.username,
      remoteAddress: facts.remoteAddress,
      // The request's id when `facts` is the request's exchange (the simulator's facts have none).
      ...("attributes" in facts ? correlated(facts as Pick<HttpExchange, "attributes">) : {}),
      data: {
        uri: facts.path,
        action: facts.method,
        policyId: decision.policyId ?? null,
        policyName: decision.policyName ?? null,
        effect: decision.effect ?? null,
        reason: decision.reason,
        ...(verdict?.action ? { ai: { action: verdict.action } } : {}),
        ...(decision.code ? { code: decision.code } : {}),
      },
    });
  }

  private auditShadow(
    authentication: Authentication | undefined,
    facts: RequestTarget,
    verdict: ZeroTrustVerdict,
    wouldDeny: string,
  ): void {
    this.o.audit.record({
      type: "authz.zerotrust.shadow",
      outcome: "info",
      principal: authentication?.username,
      remoteAddress: facts.remoteAddress,
      data: { uri: facts.path, action: facts.method, ai: { action: verdict.action ?? null }, wouldDeny },
    });
  }

  private auditError(
    authentication: Authentication | undefined,
    facts: RequestTarget,
    outcome: { decision: PolicyDecision; error?: string },
  ): void {
    this.o.audit.record({
      type: "authz.evaluation-error",
      outcome: "denied",
      principal: authentication?.username,
      remoteAddress: facts.remoteAddress,
      data: {
        uri: facts.path,
        action: facts.method,
        policyId: outcome.decision.policyId ?? null,
        error: outcome.error,
      },
    });
  }
}
