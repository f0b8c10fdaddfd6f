import type { Authentication } from "../../../packages/core/src/identity/authentication/authentication.js";

/** The combining algorithms of `platform.policy.combining-algorithm`, spelled out here so the bench needs no core code. */
export type CombiningAlgorithmName =
  | "FIRST_APPLICABLE"
  | "DENY_OVERRIDES"
  | "PERMIT_OVERRIDES"
  | "DENY_UNLESS_PERMIT"
  | "PERMIT_UNLESS_DENY";

/** Every algorithm, FIRST_APPLICABLE (the default, and the one the goals are about) first. */
export const COMBINING_ALGORITHMS: readonly CombiningAlgorithmName[] = Object.freeze([
  "FIRST_APPLICABLE",
  "DENY_OVERRIDES",
  "PERMIT_OVERRIDES",
  "DENY_UNLESS_PERMIT",
  "PERMIT_UNLESS_DENY",
]);

/** One request of the stream, as the PEP would see it after authentication. */
export interface BenchRequest {
  /** The caller; undefined for an anonymous request. */
  readonly authentication: Authentication | undefined;
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Path without query string, with concrete ids (`/api/v1/orders/4711`). */
  readonly path: string;
  /** IPv4, IPv6 or IPv4-mapped IPv6. */
  readonly remoteAddress: string;
}

/** What a PDP answered: granted, and the policy that decided (undefined when none did). */
export interface BenchDecision {
  readonly granted: boolean;
  readonly policyId?: string | undefined;
}
