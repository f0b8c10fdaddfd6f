import type { InjectionToken } from "tsyringe";
import type { Policy } from "./policy.js";
import type { PolicyRepository } from "./policy-repository.js";

/**
 * The PRP: loads policies for the decision point at start and on reload. Returns every policy with
 * a target of the asked type, executable or not, in evaluation order (priority ascending, then
 * creation order); dropping inactive, PENDING and REJECTED ones is the manager's job
 * (only active APPROVED or NOT_REQUIRED policies decide), done with `isExecutable`.
 */
export interface PolicyRetrievalPoint {
  /** Policies with at least one URL target, in evaluation order. */
  findUrlPolicies(): Promise<Policy[]>;
  /** Policies with at least one METHOD target, in evaluation order. */
  findMethodPolicies(): Promise<Policy[]>;
}

/** DI token of the PolicyRetrievalPoint port. */
export const PolicyRetrievalPoint: InjectionToken<PolicyRetrievalPoint> = Symbol.for(
  "platform.PolicyRetrievalPoint",
);

/** Options of the DefaultPolicyRetrievalPoint. */
export interface DefaultPolicyRetrievalPointOptions {
  repository: PolicyRepository;
}

/**
 * The PRP over the PolicyRepository, reading through on every call: the decision point caches the
 * compiled policy set and asks again only on reload, so a cache here would only add staleness.
 */
export class DefaultPolicyRetrievalPoint implements PolicyRetrievalPoint {
  constructor(private readonly o: DefaultPolicyRetrievalPointOptions) {}

  findUrlPolicies(): Promise<Policy[]> {
    return this.o.repository.findAll({ targetType: "URL" });
  }

  findMethodPolicies(): Promise<Policy[]> {
    return this.o.repository.findAll({ targetType: "METHOD" });
  }
}
