import type { AuthorizationDecision } from "../../identity/http-security/authorization-manager.js";
import type { PolicyEffect } from "../policy/policy.js";
import type { ZeroTrustAction } from "../zerotrust/zero-trust-action.js";

/** The dynamic manager's decision: granted or not, which policy decided, with which effect and why. */
export interface PolicyDecision extends AuthorizationDecision {
  /** The deciding policy; absent when none matched or zero trust decided first. */
  readonly policyId?: string;
  readonly policyName?: string;
  readonly effect?: PolicyEffect;
  /** The zero-trust action, when zero trust decided the request (the audit record carries it always). */
  readonly zeroTrustAction?: ZeroTrustAction;
}

/** One policy the PDP looked at, for explanations and the simulator. */
export interface PolicyTrailEntry {
  readonly policyId: string;
  readonly name: string;
  readonly priority: number;
  readonly effect: PolicyEffect;
  /** The full expression (DENY as `!(condition)`). */
  readonly expression: string;
  /** Whether the condition held; undefined when it was not evaluated or failed. */
  readonly conditionHolds?: boolean;
  /** decided: this policy gave the answer; considered: evaluated, not final; not-reached: after the decision; error: evaluation failed. */
  readonly outcome: "decided" | "considered" | "not-reached" | "error";
}
