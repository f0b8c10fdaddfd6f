import type { Authentication } from "../../../packages/core/src/identity/authentication/authentication.js";
import type { Policy } from "../../../packages/core/src/authz/policy/policy.js";
import type { ZeroTrustAction } from "../../../packages/core/src/authz/zerotrust/zero-trust-action.js";
import type { CombiningAlgorithmName } from "./bench-types.js";
import { compileReferenceAntPattern, type ReferenceAntPattern } from "./reference-ant-matcher.js";
import {
  evaluateReference,
  type ReferenceSubject,
  type ReferenceToken,
  tokenizeReference,
} from "./reference-expression.js";

/** A request as the reference sees it: the caller, the request line, the address and the zero-trust action. */
export interface ReferenceRequest {
  readonly authentication: Authentication | undefined;
  readonly method: string;
  readonly path: string;
  readonly remoteAddress: string;
  readonly zeroTrustAction: ZeroTrustAction | undefined;
}

/** The reference's answer: granted, and the policy that decided (undefined when none did). */
export interface ReferenceDecision {
  readonly granted: boolean;
  readonly policyId: string | undefined;
}

/**
 * Zero trust around the policies. OFF: the action only feeds the `#ai` functions. ENFORCE (with
 * `security.zerotrust.pending-analysis=ALLOW`, the default): a signed-in caller whose action is BLOCK or
 * ESCALATE is refused before any policy, and so is one whose action is CHALLENGE unless an `otp` or
 * `hwk` factor was completed at or after the action was recorded (a step-up). Anonymous callers, ALLOW,
 * PENDING_ANALYSIS and no action go on to the policies.
 */
export type ReferenceZeroTrust =
  | { readonly mode: "OFF" }
  | { readonly mode: "ENFORCE"; readonly actionsRecordedAt: number };

function refusedByZeroTrust(request: ReferenceRequest, recordedAt: number): boolean {
  const auth = request.authentication;
  if (auth === undefined) return false;
  switch (request.zeroTrustAction) {
    case "BLOCK":
    case "ESCALATE":
      return true;
    case "CHALLENGE":
      return !auth.factors.some((f) => (f.type === "otp" || f.type === "hwk") && f.at >= recordedAt);
    default:
      return false;
  }
}

/** One condition after the converter's rules: a plain authority, a parsed expression. */
type ReferenceCondition = { readonly authority: string } | { readonly tokens: readonly ReferenceToken[] };

interface ReferencePolicy {
  readonly id: string;
  readonly effect: "ALLOW" | "DENY";
  readonly targets: ReadonlyArray<{ readonly pattern: ReferenceAntPattern; readonly method: string }>;
  /** undefined = no conditions at all (always holds); [] = everything was stripped (never holds). */
  readonly conditions: readonly ReferenceCondition[] | undefined;
}

const PLAIN_AUTHORITY = /^[A-Za-z_][\w.:-]*$/;
const KEYWORDS = new Set(["permitAll", "denyAll", "true", "false"]);

/**
 * The bench's independent PDP: slow on purpose and obvious, sharing no code with packages/core/src/authz
 * or packages/core/src/web. Executable policies (active; NOT_REQUIRED or APPROVED) in priority order,
 * ties by createdSeq; a policy applies to a request when one of its URL targets matches path and method.
 */
export class ReferenceEvaluator {
  private readonly policies: readonly ReferencePolicy[];

  constructor(
    policies: readonly Policy[],
    private readonly algorithm: CombiningAlgorithmName,
    private readonly zeroTrust: ReferenceZeroTrust = { mode: "OFF" },
  ) {
    this.policies = policies
      .filter((p) => p.isActive && (p.approvalStatus === "NOT_REQUIRED" || p.approvalStatus === "APPROVED"))
      .sort((a, b) =>
        a.priority !== b.priority ? (a.priority < b.priority ? -1 : 1) : a.createdSeq - b.createdSeq,
      )
      .map(compilePolicy);
  }

  /** Decides one request under the algorithm given at construction. */
  decide(request: ReferenceRequest): ReferenceDecision {
    if (this.zeroTrust.mode === "ENFORCE" && refusedByZeroTrust(request, this.zeroTrust.actionsRecordedAt)) {
      return { granted: false, policyId: undefined };
    }
    const subject: ReferenceSubject = {
      authorities: request.authentication?.authorities,
      remoteAddress: request.remoteAddress,
      zeroTrustAction: request.zeroTrustAction,
    };
    const method = request.method.toUpperCase();
    const path = request.path === "" ? "/" : request.path;
    if (this.algorithm === "FIRST_APPLICABLE") {
      for (const policy of this.policies) {
        if (!applies(policy, method, path)) continue;
        const holds = conditionHolds(policy, subject);
        return { granted: policy.effect === "ALLOW" ? holds : !holds, policyId: policy.id };
      }
      return { granted: true, policyId: undefined };
    }
    // XACML: a policy whose condition does not hold is NotApplicable; keep the first Permit and Deny in order.
    let firstPermit: string | undefined;
    let firstDeny: string | undefined;
    for (const policy of this.policies) {
      if (!applies(policy, method, path) || !conditionHolds(policy, subject)) continue;
      if (policy.effect === "ALLOW") firstPermit ??= policy.id;
      else firstDeny ??= policy.id;
    }
    const permit = { granted: true, policyId: firstPermit };
    const deny = { granted: false, policyId: firstDeny };
    switch (this.algorithm) {
      case "DENY_OVERRIDES":
        return firstDeny !== undefined ? deny : permit;
      case "PERMIT_OVERRIDES":
        return firstPermit !== undefined || firstDeny === undefined ? permit : deny;
      case "DENY_UNLESS_PERMIT":
        return firstPermit !== undefined ? permit : deny;
      case "PERMIT_UNLESS_DENY":
        return firstDeny !== undefined ? deny : permit;
    }
  }
}

function compilePolicy(policy: Policy): ReferencePolicy {
  const targets = policy.targets
    .filter((t) => t.targetType === "URL")
    .map((t) => ({
      pattern: compileReferenceAntPattern(t.targetIdentifier),
      method: t.httpMethod.toUpperCase(),
    }));
  const sources = policy.rules.flatMap((rule) => rule.conditions.map((c) => c.expression.trim()));
  let conditions: ReferenceCondition[] | undefined;
  if (sources.length > 0) {
    conditions = [];
    for (const source of sources) {
      if (PLAIN_AUTHORITY.test(source) && !KEYWORDS.has(source)) {
        conditions.push({ authority: source });
        continue;
      }
      const tokens = tokenizeReference(source);
      // hasPermission(...) means something only at method level: a URL policy drops the whole condition.
      if (isHasPermissionCall(tokens)) continue;
      conditions.push({ tokens });
    }
  }
  return { id: policy.id, effect: policy.effect, targets, conditions };
}

function isHasPermissionCall(tokens: readonly ReferenceToken[]): boolean {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (first?.kind !== "word" || first.text !== "hasPermission" || last?.kind !== ")") return false;
  return tokens.slice(1).filter((t) => t.kind === "(" || t.kind === ")").length === 2;
}

function applies(policy: ReferencePolicy, method: string, path: string): boolean {
  for (const target of policy.targets) {
    if (target.method !== "ANY" && target.method !== method) continue;
    // The literal prefix is a necessary condition of the regex; it only saves time.
    if (!path.startsWith(target.pattern.literalPrefix)) continue;
    if (target.pattern.regex.test(path)) return true;
  }
  return false;
}

/** Several conditions are any-of (hasAnyAuthority for plain ones, `or` for mixed ones). */
function conditionHolds(policy: ReferencePolicy, subject: ReferenceSubject): boolean {
  if (policy.conditions === undefined) return true;
  for (const condition of policy.conditions) {
    if ("authority" in condition) {
      if (subject.authorities?.includes(condition.authority)) return true;
    } else if (evaluateReference(condition.tokens, subject)) {
      return true;
    }
  }
  return false;
}
