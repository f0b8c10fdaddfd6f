import type { Authentication } from "../../identity/authentication/authentication.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { EvaluationContext } from "../expression/evaluation-context.js";
import { isOwner } from "../expression/method-functions.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import type { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import type { PolicyRetrievalPoint } from "../policy/policy-retrieval-point.js";
import { type CompiledMethodPolicy, MethodPolicySet } from "./method-policy-set.js";
import type { PermissionEvaluator } from "./permission-evaluator.js";
import type { MethodAuthorizationManager, MethodDecision } from "./method-authorization-manager.js";
import type { ProtectableMethod } from "./protectable.js";

/** Options of the PolicyMethodAuthorizationManager. */
export interface PolicyMethodAuthorizationManagerOptions {
  prp: PolicyRetrievalPoint;
  compiler: ExpressionCompiler;
  converter: PolicyExpressionConverter;
  permissions: PermissionEvaluator;
  audit: AuditSink;
  clock: Clock;
  timeZone: string;
}

/** The authority that bypasses `@Protectable` ownership checks: administrators reach every owner's data. */
const ADMIN = "ROLE_ADMIN";

/**
 * The default MethodAuthorizationManager: decides `@Protectable` method calls against METHOD policies (first applicable, DENY as
 * `!(condition)`, no policy → allowed) before the call, and ownership on the returned entity after
 * it: with `ownerField`, the owner (and ROLE_ADMIN) may always access their resource, and others
 * only when an ALLOW policy granted explicitly. Policies reading `returnObject`/#ownership are decided after
 * the call, on the value.
 */
export class PolicyMethodAuthorizationManager implements MethodAuthorizationManager {
  private set = MethodPolicySet.empty();

  constructor(private readonly o: PolicyMethodAuthorizationManagerOptions) {}

  /** Loads (or reloads) the METHOD policies; the new set replaces the old in one assignment. */
  async reload(): Promise<void> {
    const policies = await this.o.prp.findMethodPolicies();
    this.set = MethodPolicySet.build(policies, this.o);
  }

  /** The decision before the call. */
  before(method: ProtectableMethod, authentication: Authentication | undefined): MethodDecision {
    const policy = this.set.policiesOf(method.identifier)[0];
    if (!policy) return { granted: true, reason: "no method policy" };
    if (policy.readsReturnValue) return { granted: true, reason: "decided after the call", deferred: policy };
    return this.evaluate(policy, this.context(authentication, method, undefined));
  }

  /** The final decision on the value the method returned. */
  after(
    method: ProtectableMethod,
    authentication: Authentication | undefined,
    returnObject: unknown,
    before: MethodDecision,
  ): MethodDecision {
    const decision = before.deferred
      ? this.evaluate(before.deferred, this.context(authentication, method, returnObject))
      : before;
    if (!method.ownerField || returnObject === null || typeof returnObject !== "object") return decision;
    if (authentication?.authorities.includes(ADMIN))
      return { ...decision, granted: true, reason: "ROLE_ADMIN" };
    if (isOwnerOf(authentication, returnObject, method.ownerField)) {
      return { ...decision, granted: true, reason: "owner" };
    }
    // A DENY whose condition does not hold only fails to refuse; it grants nothing to non-owners.
    return decision.granted && decision.effect === "ALLOW"
      ? decision
      : { ...decision, granted: false, reason: "not the owner" };
  }

  /** Audits a refused call (never the arguments or the value). */
  audit(
    method: ProtectableMethod,
    authentication: Authentication | undefined,
    decision: MethodDecision,
  ): void {
    this.o.audit.record({
      type: "authz.method.denied",
      outcome: "denied",
      principal: authentication?.username,
      data: {
        method: method.identifier,
        policyId: decision.policyId ?? null,
        policyName: decision.policyName ?? null,
        reason: decision.reason,
      },
    });
  }

  private evaluate(policy: CompiledMethodPolicy, ctx: EvaluationContext): MethodDecision {
    const base = { policyId: policy.id, policyName: policy.name, effect: policy.effect };
    let holds: boolean;
    try {
      if (!policy.condition) return { ...base, granted: false, reason: "invalid condition (fail closed)" };
      holds = policy.condition.evaluate(ctx);
    } catch {
      return { ...base, granted: false, reason: "evaluation error (fail closed)" };
    }
    const granted = policy.effect === "ALLOW" ? holds : !holds;
    return { ...base, granted, reason: `${policy.effect} '${policy.name}': ${policy.expression}` };
  }

  private context(
    authentication: Authentication | undefined,
    method: ProtectableMethod,
    returnObject: unknown,
  ): EvaluationContext {
    return {
      authentication,
      remoteAddress: "",
      now: this.o.clock.now(),
      timeZone: this.o.timeZone,
      zeroTrustAction: undefined,
      returnObject,
      ...(method.ownerField ? { ownerField: method.ownerField } : {}),
      hasPermission: (resource, action) => this.o.permissions.hasPermission(authentication, resource, action),
    };
  }
}

/** True when the entity's owner field equals the caller's username or user id. */
export function isOwnerOf(
  authentication: Authentication | undefined,
  entity: object,
  ownerField: string,
): boolean {
  // The same rule as `#ownership.isOwner` in expressions (getters count; only strings and finite numbers).
  return isOwner({
    authentication,
    returnObject: entity,
    ownerField,
    remoteAddress: "",
    now: 0,
    timeZone: "UTC",
    zeroTrustAction: undefined,
  });
}
