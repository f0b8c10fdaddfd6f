import type { InjectionToken } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { PolicyEffect } from "../policy/policy.js";
import type { CompiledMethodPolicy } from "./method-policy-set.js";
import type { ProtectableMethod } from "./protectable.js";

/** A method-level decision. */
export interface MethodDecision {
  readonly granted: boolean;
  readonly reason: string;
  readonly policyId?: string;
  readonly policyName?: string;
  /** The deciding policy's effect: only an ALLOW that granted lets a non-owner read an owned entity. */
  readonly effect?: PolicyEffect;
  /** The deciding policy reads the returned value: it is decided after the call. */
  readonly deferred?: CompiledMethodPolicy;
}

/**
 * Decides `@Protectable` method calls for MethodSecurity: once before the call, once on the value it
 * returned (ownership, policies that read `returnObject`). The default is PolicyMethodAuthorizationManager.
 */
export interface MethodAuthorizationManager {
  /** Loads (or reloads) the METHOD policies; called at start and on every policy change. */
  reload(): Promise<void>;
  /** The decision before the call. */
  before(method: ProtectableMethod, authentication: Authentication | undefined): MethodDecision;
  /** The final decision on the value the method returned, given the decision before the call. */
  after(
    method: ProtectableMethod,
    authentication: Authentication | undefined,
    returnObject: unknown,
    before: MethodDecision,
  ): MethodDecision;
  /** Audits a refused call (never the arguments or the value). */
  audit(
    method: ProtectableMethod,
    authentication: Authentication | undefined,
    decision: MethodDecision,
  ): void;
}

/** DI token of the method-level decision maker. */
export const MethodAuthorizationManager: InjectionToken<MethodAuthorizationManager> = Symbol.for(
  "platform.MethodAuthorizationManager",
);
