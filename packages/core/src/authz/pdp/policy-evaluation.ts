import type { Authentication } from "../../identity/authentication/authentication.js";
import type { EvaluationContext } from "../expression/evaluation-context.js";
import { isFinal, outcomeOf, undecided, type PolicyOutcome } from "./combining-algorithm.js";
import type { CompiledPolicy, CompiledPolicySet } from "./compiled-policy-set.js";
import type { CombiningAlgorithm } from "./combining-algorithm.js";
import type { PolicyDecision, PolicyTrailEntry } from "./policy-decision.js";

/** What of a request the policies look at (an HttpExchange is one). */
export interface RequestTarget {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /**
   * The path split into segments (an HttpExchange's, split once per request): the index walks these.
   * Absent, the path is split for the lookup.
   */
  readonly segments?: readonly string[] | undefined;
  readonly remoteAddress: string;
}

/** The request and its caller, as the PDP sees them. */
export interface RequestFacts extends RequestTarget {
  readonly authentication: Authentication | undefined;
}

/** A decision plus what the evaluator learnt on the way. */
export interface EvaluationOutcome {
  readonly decision: PolicyDecision;
  /** An evaluation error (the policy was treated as denying). */
  readonly error?: string;
  /** Whether a deciding condition read the zero-trust action (SHADOW re-checks those). */
  readonly usedZeroTrust: boolean;
}

const NO_MATCH_GRANTED: EvaluationOutcome = Object.freeze({
  decision: Object.freeze({ granted: true, reason: "no policy matched" }),
  usedZeroTrust: false,
});
const NO_MATCH_DENIED: EvaluationOutcome = Object.freeze({
  decision: Object.freeze({
    granted: false,
    reason: "no policy matched (no-match-decision DENY)",
    audited: true,
  }),
  usedZeroTrust: false,
});

/** Evaluates a policy's condition; a broken policy or a throwing condition is an error (fail closed). */
function holds(policy: CompiledPolicy, ctx: EvaluationContext): boolean | string {
  const test = policy.test;
  if (!test) return policy.brokenReason ?? "invalid condition";
  try {
    return test(ctx);
  } catch (error) {
    return error instanceof Error ? error.message.slice(0, 200) : "evaluation failed";
  }
}

function decided(policy: CompiledPolicy, granted: boolean, reason: string): PolicyDecision {
  return {
    granted,
    reason,
    policyId: policy.id,
    policyName: policy.name,
    effect: policy.effect,
    ...(granted ? {} : { audited: true }),
  };
}

/**
 * FIRST_APPLICABLE: the first policy whose target matches decides with its expression (ALLOW: the
 * condition; DENY: `!(condition)`, so a DENY whose condition does not hold grants). No match →
 * `noMatchGranted`.
 */
export function decideFirstApplicable(
  set: CompiledPolicySet,
  facts: RequestTarget,
  ctx: EvaluationContext,
  noMatchGranted: boolean,
): EvaluationOutcome {
  const target = set.index.first(facts.path, facts.method, facts.segments);
  if (!target) return noMatchGranted ? NO_MATCH_GRANTED : NO_MATCH_DENIED;
  // The target carries the policy's hot fields (PolicyHotFields); the policy is read on errors only.
  const test = target.test;
  if (test) {
    let result: boolean | undefined;
    try {
      result = test(ctx);
    } catch {
      result = undefined;
    }
    if (result !== undefined)
      return (target.effect === "ALLOW" ? result : !result) ? target.granted : target.denied;
  }
  const policy = target.value;
  const error = holds(policy, ctx);
  return {
    decision: decided(policy, false, `evaluation error in '${policy.name}'`),
    error: typeof error === "string" ? error : "evaluation failed",
    usedZeroTrust: policy.condition?.usesZeroTrust ?? false,
  };
}

/**
 * The XACML algorithms over every matching policy in order: a policy whose condition holds gives its
 * effect, otherwise it is NotApplicable; an evaluation error counts as a Deny (fail closed).
 */
export function decideCombined(
  set: CompiledPolicySet,
  facts: RequestTarget,
  ctx: EvaluationContext,
  noMatchGranted: boolean,
): EvaluationOutcome {
  const algorithm = set.algorithm;
  const matches = set.index.matching(facts.path, facts.method, facts.segments);
  let sawPermit: CompiledPolicy | undefined;
  let sawDeny: CompiledPolicy | undefined;
  let usedZeroTrust = false;
  let error: string | undefined;
  let last = -1;
  for (let i = 0; i < matches.length; i++) {
    const policy = matches[i]!.value;
    if (policy.rank === last) continue; // several targets of one policy
    last = policy.rank;
    const result = holds(policy, ctx);
    usedZeroTrust ||= policy.condition?.usesZeroTrust ?? false;
    let outcome: PolicyOutcome;
    if (typeof result === "string") {
      error ??= result;
      outcome = "Deny";
    } else outcome = outcomeOf(policy.effect, result);
    if (outcome === "Permit") sawPermit ??= policy;
    if (outcome === "Deny") sawDeny ??= policy;
    if (isFinal(algorithm, outcome)) {
      const granted = outcome === "Permit";
      const reason = error
        ? `evaluation error in '${policy.name}'`
        : `${algorithm}: ${outcome} by '${policy.name}'`;
      return { decision: decided(policy, granted, reason), usedZeroTrust, ...(error ? { error } : {}) };
    }
  }
  const noMatch = !sawPermit && !sawDeny;
  const granted = undecided(algorithm, sawPermit !== undefined, sawDeny !== undefined, noMatchGranted);
  const by = granted ? sawPermit : sawDeny;
  const reason = noMatch
    ? `${algorithm}: no applicable policy`
    : `${algorithm}: ${granted ? "Permit" : "Deny"}${by ? ` by '${by.name}'` : ""}`;
  const decision: PolicyDecision = by
    ? decided(by, granted, reason)
    : { granted, reason, ...(granted ? {} : { audited: true }) };
  return { decision, usedZeroTrust, ...(error ? { error } : {}) };
}

/**
 * Every policy whose target matches, in order, with its condition's value and its part in the
 * decision: the simulator's trail. Slow on purpose (evaluates everything); never on the request path.
 */
export function explainPolicies(
  set: CompiledPolicySet,
  facts: RequestTarget,
  ctx: EvaluationContext,
  decision: PolicyDecision,
): PolicyTrailEntry[] {
  const seen = new Set<number>();
  const trail: PolicyTrailEntry[] = [];
  let reached = true;
  for (const target of [...set.index.matching(facts.path, facts.method, facts.segments)]) {
    const policy = target.value;
    if (seen.has(policy.rank)) continue;
    seen.add(policy.rank);
    const result = holds(policy, ctx);
    const isDecider = policy.id === decision.policyId;
    const entry = {
      policyId: policy.id,
      name: policy.name,
      priority: policy.priority,
      effect: policy.effect,
      expression: policy.expression,
    };
    if (typeof result === "string") trail.push({ ...entry, outcome: isDecider ? "decided" : "error" });
    else
      trail.push({
        ...entry,
        conditionHolds: result,
        outcome: isDecider ? "decided" : reached ? "considered" : "not-reached",
      });
    if (isDecider) reached = false;
  }
  return trail;
}

/** What a set decides for a request, with the trail of every policy whose target matched. */
export interface ExplainedDecision {
  readonly decision: PolicyDecision;
  readonly trail: PolicyTrailEntry[];
  readonly algorithm: CombiningAlgorithm;
}

/**
 * The simulator's answer over any set: the decision under the set's algorithm and the trail. The
 * dynamic manager explains its loaded set with it; the Policy Center's preview, a set with a draft
 * policy added. Nothing is audited.
 */
export function explainDecision(
  set: CompiledPolicySet,
  facts: RequestTarget,
  ctx: EvaluationContext,
  noMatchGranted: boolean,
): ExplainedDecision {
  const decide = set.algorithm === "FIRST_APPLICABLE" ? decideFirstApplicable : decideCombined;
  const { decision } = decide(set, facts, ctx, noMatchGranted);
  return { decision, trail: explainPolicies(set, facts, ctx, decision), algorithm: set.algorithm };
}
