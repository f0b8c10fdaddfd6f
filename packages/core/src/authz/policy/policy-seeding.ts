import type { Authentication } from "../../identity/authentication/authentication.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { Policy } from "./policy.js";
import type { PolicyCreateInput } from "./policy-schema.js";

/** A system actor's name: lower-case letters, digits and hyphens, 1 to 64, starting with a letter or digit. */
const SYSTEM_ACTOR_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * The actor `system:<name>` holding `authority`: for code the host runs itself (seeding at start, a
 * migration). No request can carry it: only code in the process makes one. Its user id is `system`
 * (never an id the IdGenerator hands out), and audit records name it `system:<name>`.
 */
export function systemActorFor(name: string, authority: string): Authentication {
  if (typeof name !== "string" || !SYSTEM_ACTOR_NAME.test(name)) {
    throw new PlatformError("VALIDATION_FAILED", "A system actor's name is invalid", {
      details: {
        issues: [{ path: "name", message: "must be 1 to 64 of a-z, 0-9 and -, not starting with -" }],
      },
    });
  }
  return Object.freeze({
    userId: "system",
    username: `system:${name}`,
    authorities: Object.freeze([authority]),
    method: "form",
    authenticatedAt: 0,
    factors: Object.freeze([]),
  });
}

/** What seeding needs of the PAP: the same checked, audited operations an administrator uses. */
export interface SeedingPap {
  list(filter: Record<string, never>, actor: Authentication): Promise<Policy[]>;
  create(input: PolicyCreateInput, actor: Authentication): Promise<Policy>;
  delete(id: string, actor: Authentication): Promise<void>;
}

/**
 * Creates each of `policies` whose name no stored policy has (validated, audited, reloaded as any
 * create), and returns the names it created. Instances starting together on one database may both
 * create a missing policy (names are not unique in the store), so each then keeps the earliest of
 * every seeded name and deletes the others: both pick the same survivor, and a twin never outlives an
 * administrator's deletion of the original. A policy an administrator changed or deleted later is
 * never touched again unless its name is free (deleting one brings it back at the next seeding).
 */
export async function seedMissingPolicies(
  pap: SeedingPap,
  policies: readonly PolicyCreateInput[],
  actor: Authentication,
): Promise<string[]> {
  const existing = new Set((await pap.list({}, actor)).map((p) => p.name));
  const missing = policies.filter((policy) => !existing.has(policy.name));
  if (missing.length === 0) return [];
  for (const policy of missing) await pap.create(policy, actor);
  const names = new Set(missing.map((p) => p.name));
  const seeded = (await pap.list({}, actor))
    .filter((p) => names.has(p.name))
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const kept = new Set<string>();
  for (const policy of seeded) {
    if (!kept.has(policy.name)) kept.add(policy.name);
    else await pap.delete(policy.id, actor).catch(ignoreNotFound);
  }
  return missing.map((p) => p.name);
}

/** A twin another instance deleted first is gone already. */
function ignoreNotFound(error: unknown): void {
  if (!isPlatformError(error, "NOT_FOUND")) throw error;
}
