import type { Policy } from "../../../packages/core/src/authz/policy/policy.js";
import type { ZeroTrustAction } from "../../../packages/core/src/authz/zerotrust/zero-trust-action.js";
import type { BenchRequest, CombiningAlgorithmName } from "./bench-types.js";
import type { PdpBuildOptions } from "./pdp-under-test.js";
import { seededRandom } from "./seeded-random.js";
import { generatePolicies } from "./workload-policies.js";
import { generateRequests } from "./workload-requests.js";
import { ACTIONS_RECORDED_AT, type BenchUser, DECISION_TIME, generateUsers } from "./workload-users.js";

export type { BenchUser } from "./workload-users.js";

/** What one workload is made of. */
export interface WorkloadOptions {
  /** N, the number of policies. */
  readonly policyCount: number;
  /** Distinct requests in the stream (the timed loops cycle through it). */
  readonly requestCount: number;
  /** Default 2,000. */
  readonly userCount?: number;
  /** Default 0x5eed; the same seed gives the same workload. */
  readonly seed?: number;
}

/** Policies, users, zero-trust actions and a request stream, all derived from one seed. */
export interface Workload {
  readonly seed: number;
  /** N policies in shuffled order (createdSeq says the creation order), a few not executable. */
  readonly policies: readonly Policy[];
  /** The `<res>` names the policies cover. */
  readonly resources: readonly string[];
  readonly users: readonly BenchUser[];
  /** Zero-trust action per user id, for about 10% of users. */
  readonly actions: ReadonlyMap<string, ZeroTrustAction>;
  readonly requests: readonly BenchRequest[];
  /** When the actions were recorded, and the decision time (epoch ms). */
  readonly actionsRecordedAt: number;
  readonly now: number;
}

/** What `PdpUnderTest.build` gets for this workload under `algorithm`. */
export function buildOptions(workload: Workload, algorithm: CombiningAlgorithmName): PdpBuildOptions {
  return {
    algorithm,
    actions: workload.actions,
    actionsRecordedAt: workload.actionsRecordedAt,
    now: workload.now,
  };
}

/** The default seed. */
export const DEFAULT_SEED = 0x5eed;

/**
 * Builds the workload of issue #8: N URL policies over ~N/6 resources of a realistic API, 2,000 users
 * with 1-3 roles (the same users at every N), a request stream with 5% anonymous requests and ~70% hitting
 * some policy. Deterministic: each part draws from its own stream forked off the seed.
 */
export function generateWorkload(options: WorkloadOptions): Workload {
  const seed = options.seed ?? DEFAULT_SEED;
  const root = seededRandom(seed);
  const { users, actions } = generateUsers(options.userCount ?? 2_000, root.fork("users"));
  const { policies, resources } = generatePolicies(
    options.policyCount,
    root.fork(`policies-${options.policyCount}`),
  );
  const requests = generateRequests(
    options.requestCount,
    policies,
    resources,
    users,
    root.fork(`requests-${options.policyCount}`),
  );
  return {
    seed,
    policies,
    resources,
    users,
    actions,
    requests,
    actionsRecordedAt: ACTIONS_RECORDED_AT,
    now: DECISION_TIME,
  };
}
