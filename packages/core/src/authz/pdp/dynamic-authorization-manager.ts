import type { Authentication } from "../../identity/authentication/authentication.js";
import type { AuthorizationManager } from "../../identity/http-security/authorization-manager.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { EvaluationContext } from "../expression/evaluation-context.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import type { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import type { PolicyRetrievalPoint } from "../policy/policy-retrieval-point.js";
import type { CombiningAlgorithm } from "./combining-algorithm.js";
import { CompiledPolicySet, type PolicySetReport } from "./compiled-policy-set.js";
import type { ZeroTrustAction } from "../zerotrust/zero-trust-action.js";
import type { PolicyDecision, PolicyTrailEntry } from "./policy-decision.js";
import {
  decideCombined,
  decideFirstApplicable,
  explainPolicies,
  type RequestFacts,
} from "./policy-evaluation.js";
import type { ZeroTrustEvaluator, ZeroTrustVerdict } from "./zero-trust-evaluator.js";

/** Options of the DynamicAuthorizationManager. */
export interface DynamicAuthorizationManagerOptions {
  prp: PolicyRetrievalPoint;
  compiler: ExpressionCompiler;
  converter: PolicyExpressionConverter;
  /** Where denials and evaluation errors go (wrap a slow sink in a DecisionAuditQueue). */
  audit: AuditSink;
  clock: Clock;
  algorithm: CombiningAlgorithm;
  /** The answer when no URL policy matches (the spec: true). */
  noMatchGranted: boolean;
  /** IANA zone for time conditions. */
  timeZone: string;
  zeroTrust?: ZeroTrustEvaluator;
  /** The request's session id, for session-scoped zero-trust actions. */
  sessionId?: (exchange: HttpExchange) => string | undefined | Promise<string | undefined>;
  logger?: Logger;
}

/**
 * The PEP of dynamic authorization (`anyRequest().access(manager)`): decides requests against the
 * database's URL policies, compiled once and indexed by path. `initialize()` loads them at start-up,
 * `reload()` rebuilds a complete new set off the request path and swaps it in one assignment, so
 * requests in flight finish on the set they started with.
 */
export class DynamicAuthorizationManager implements AuthorizationManager {
  private current: CompiledPolicySet;
  private rebuilding: Promise<PolicySetReport> | undefined;
  private again = false;
  private lastReport: PolicySetReport | undefined;

  constructor(private readonly o: DynamicAuthorizationManagerOptions) {
    this.current = CompiledPolicySet.empty(o.algorithm);
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

  /** The report of the last completed build. */
  get report(): PolicySetReport | undefined {
    return this.lastReport;
  }

  /** The set decisions use now (for explanations and tests). */
  get policySet(): CompiledPolicySet {
    return this.current;
  }

  /** Decides a request (the AuthorizationManager contract). */
  async check(authentication: Authentication | undefined, exchange: HttpExchange): Promise<PolicyDecision> {
    let verdict: ZeroTrustVerdict | null | undefined = null;
    if (authentication && this.o.zeroTrust) {
      const sessionId = this.o.sessionId ? await this.o.sessionId(exchange) : undefined;
      verdict = this.o.zeroTrust.cached(authentication, sessionId);
      if (verdict === undefined) verdict = await this.o.zeroTrust.evaluate(authentication, sessionId);
    }
    return this.decide(
      {
        authentication,
        method: exchange.method.toUpperCase(),
        path: exchange.path,
        remoteAddress: exchange.remoteAddress,
      },
      verdict,
    );
  }

  /** Decides synchronously from known facts and a zero-trust verdict (check() minus the lookups). */
  decide(facts: RequestFacts, verdict: ZeroTrustVerdict | null): PolicyDecision {
    const set = this.current;
    const denial = verdict?.denial;
    if (denial && verdict.mode === "ENFORCE") {
      const decision: PolicyDecision = {
        granted: false,
        reason: `zero trust: ${denial.reason}`,
        code: denial.code,
        message: denial.message,
        zeroTrustAction: verdict.action,
        audited: true,
        ...(denial.stepUp ? { stepUp: denial.stepUp } : {}),
      };
      this.auditDenied(facts, decision);
      return decision;
    }
    if (denial) this.auditShadow(facts, verdict, "zero-trust action");
    const ctx: EvaluationContext = {
      authentication: facts.authentication,
      remoteAddress: facts.remoteAddress,
      now: this.o.clock.now(),
      timeZone: this.o.timeZone,
      zeroTrustAction: verdict?.action,
    };
    const decide = set.algorithm === "FIRST_APPLICABLE" ? decideFirstApplicable : decideCombined;
    let outcome = decide(set, facts, ctx, this.o.noMatchGranted);
    if (outcome.error) this.auditError(facts, outcome);
    if (!outcome.decision.granted && verdict?.mode === "SHADOW" && outcome.usedZeroTrust) {
      // SHADOW never denies on AI conditions: decide again as if the AI had said ALLOW.
      const relaxed = decide(set, facts, { ...ctx, zeroTrustAction: "ALLOW" }, this.o.noMatchGranted);
      if (relaxed.decision.granted) {
        this.auditShadow(facts, verdict, outcome.decision.reason);
        outcome = relaxed;
      }
    }
    let decision = verdict ? { ...outcome.decision, zeroTrustAction: verdict.action } : outcome.decision;
    if (!decision.granted) {
      decision = { ...decision, audited: true };
      this.auditDenied(facts, decision);
    }
    return decision;
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
    const decide = set.algorithm === "FIRST_APPLICABLE" ? decideFirstApplicable : decideCombined;
    const { decision } = decide(set, facts, ctx, this.o.noMatchGranted);
    return { decision, trail: explainPolicies(set, facts, ctx, decision), algorithm: set.algorithm };
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
    for (const s of report.shadowed) log.warn("authz.policy.shadowed", { ...s });
    for (const b of report.broken) log.warn("authz.policy.broken", { ...b });
  }

  private auditDenied(facts: RequestFacts, decision: PolicyDecision): void {
    this.o.audit.record({
      type: "authz.denied",
      outcome: "denied",
      principal: facts.authentication?.username,
      remoteAddress: facts.remoteAddress,
      data: {
        uri: facts.path,
        action: facts.method,
        policyId: decision.policyId ?? null,
        policyName: decision.policyName ?? null,
        effect: decision.effect ?? null,
        reason: decision.reason,
        ...(decision.zeroTrustAction ? { ai: { action: decision.zeroTrustAction } } : {}),
        ...(decision.code ? { code: decision.code } : {}),
      },
    });
  }

  private auditShadow(facts: RequestFacts, verdict: ZeroTrustVerdict, wouldDeny: string): void {
    this.o.audit.record({
      type: "authz.zerotrust.shadow",
      outcome: "info",
      principal: facts.authentication?.username,
      remoteAddress: facts.remoteAddress,
      data: { uri: facts.path, action: facts.method, ai: { action: verdict.action ?? null }, wouldDeny },
    });
  }

  private auditError(facts: RequestFacts, outcome: { decision: PolicyDecision; error?: string }): void {
    this.o.audit.record({
      type: "authz.evaluation-error",
      outcome: "denied",
      principal: facts.authentication?.username,
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
