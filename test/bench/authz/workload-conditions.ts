import type { SeededRandom } from "./seeded-random.js";

/** Role names without the ROLE_ prefix, most common first (users and policies draw them Zipf-like). */
export const ROLES: readonly string[] = Object.freeze([
  "USER",
  "SALES",
  "SUPPORT",
  "MANAGER",
  "DEVELOPER",
  "ANALYST",
  "BILLING",
  "OPERATOR",
  "AUDITOR",
  "ADMIN",
  "FINANCE",
  "HR",
  "PARTNER",
  "MARKETING",
  "SECURITY",
  "COMPLIANCE",
  "LEGAL",
  "WAREHOUSE",
  "CONTRACTOR",
  "GUEST",
]);

const ROLE_WEIGHTS: ReadonlyArray<readonly [string, number]> = ROLES.map((r, i) => [r, 1 / (i + 1)] as const);

/** Draws one role name, Zipf-like. */
export function pickRole(rng: SeededRandom): string {
  return rng.weighted(ROLE_WEIGHTS);
}

const role = (rng: SeededRandom): string => pickRole(rng);
const CIDR = "hasIpAddress('10.0.0.0/8')";

/** Conditions of an ALLOW policy, as rules of conditions. */
export function allowRules(rng: SeededRandom, res: string): string[][] {
  const a = role(rng);
  let b = role(rng);
  if (b === a) b = a === "ADMIN" ? "MANAGER" : "ADMIN";
  const split = (conditions: string[]): string[][] =>
    conditions.length > 1 && rng.chance(0.5) ? [conditions.slice(0, 1), conditions.slice(1)] : [conditions];
  return rng.weighted<() => string[][]>([
    [() => [[`hasRole('${a}')`]], 26],
    [() => [[`hasAnyAuthority('ROLE_${a}','ROLE_${b}')`]], 12],
    [() => [[`ROLE_${a}`]], 8],
    [() => split([`ROLE_${a}`, `ROLE_${b}`]), 5],
    [() => split([`ROLE_${a}`, CIDR]), 3],
    [() => split([`hasRole('${a}')`, "#ai.hasAction('ALLOW')"]), 2],
    [() => [["isAuthenticated()"]], 10],
    [() => [["permitAll"]], 4],
    [() => (rng.chance(0.5) ? [] : [[]]), 4],
    [() => [["isAuthenticated() and !#ai.needsChallenge()"]], 6],
    [() => [[CIDR]], 3],
    [() => [[`hasRole('${a}') and ${CIDR}`]], 3],
    [() => [[`(hasRole('${a}') or hasRole('${b}')) and !#ai.isBlocked()`]], 3],
    [() => [[`#ai.isAllowed() and hasAnyRole('${a}','${b}')`]], 2],
    [() => split([`hasRole('${a}')`, `hasPermission('${res}','read')`]), 1.5],
    [() => [[`hasPermission('${res}','write')`]], 0.5],
  ])();
}

/** Conditions of a DENY policy (the policy denies when they hold). */
export function denyRules(rng: SeededRandom): string[][] {
  return rng.weighted<() => string[][]>([
    [() => (rng.chance(0.5) ? [] : [[]]), 30],
    [() => [["#ai.isBlocked()"]], 20],
    [() => [["!hasRole('ADMIN')"]], 15],
    [() => [[rng.chance(0.5) ? "hasRole('GUEST')" : "ROLE_CONTRACTOR"]], 15],
    [() => [["#ai.hasActionIn('BLOCK','ESCALATE')"]], 5],
    [() => [["!isAuthenticated()"]], 10],
    [() => [[`!${CIDR}`]], 5],
  ])();
}
