import type {
  Authentication,
  AuthenticationFactor,
} from "../../../packages/core/src/identity/authentication/authentication.js";
import type { ZeroTrustAction } from "../../../packages/core/src/authz/zerotrust/zero-trust-action.js";
import type { SeededRandom } from "./seeded-random.js";
import { pickRole } from "./workload-conditions.js";

/** A signed-in user of the workload. */
export interface BenchUser {
  readonly userId: string;
  readonly roles: readonly string[];
  readonly authentication: Authentication;
}

const SIGNED_IN_AT = Date.UTC(2026, 0, 5, 8, 0, 0);
/** When the zero-trust actions were recorded: after every sign-in, so only an explicit step-up clears a CHALLENGE. */
export const ACTIONS_RECORDED_AT = Date.UTC(2026, 0, 5, 12, 0, 0);
/** The decision time of the whole bench, a second later (no action has expired). */
export const DECISION_TIME = ACTIONS_RECORDED_AT + 1_000;

/**
 * `count` users (`u-<n>`) with 1-3 distinct roles each, and the zero-trust actions of about 10% of them;
 * about a third of the CHALLENGE users completed an `otp` step-up after their action was recorded.
 */
export function generateUsers(
  count: number,
  rng: SeededRandom,
): { users: BenchUser[]; actions: Map<string, ZeroTrustAction> } {
  const users: BenchUser[] = [];
  const actions = new Map<string, ZeroTrustAction>();
  for (let n = 0; n < count; n++) {
    const wanted = rng.weighted([
      [1, 45],
      [2, 35],
      [3, 20],
    ] as const);
    const roles = new Set<string>();
    while (roles.size < wanted) roles.add(pickRole(rng));
    const userId = `u-${n}`;
    const at = SIGNED_IN_AT + n * 1_000;
    const passkey = rng.chance(0.2);
    const action = rng.chance(0.1)
      ? rng.weighted<ZeroTrustAction>([
          ["ALLOW", 68],
          ["CHALLENGE", 14],
          ["BLOCK", 10],
          ["ESCALATE", 5],
          ["PENDING_ANALYSIS", 3],
        ])
      : undefined;
    if (action) actions.set(userId, action);
    const factors: AuthenticationFactor[] = [{ type: passkey ? "hwk" : "pwd", at }];
    if (action === "CHALLENGE" && rng.chance(0.35))
      factors.push({ type: "otp", at: ACTIONS_RECORDED_AT + 500 });
    users.push({
      userId,
      roles: [...roles],
      authentication: Object.freeze({
        userId,
        username: `user${n}@example.test`,
        authorities: Object.freeze([...roles].map((r) => `ROLE_${r}`)),
        method: passkey ? "passkey" : rng.pick(["form", "rest", "bearer"] as const),
        authenticatedAt: at,
        factors: Object.freeze(factors),
      }),
    });
  }
  return { users, actions };
}
