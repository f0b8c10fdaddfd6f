/**
 * The registry states of a prompt-bundle release, in the spec's order (prompt-governance.md,
 * "Registry states"). Only ACTIVE and CANARY are enforced at run time.
 */
export const RELEASE_STATES = ["AVAILABLE", "SHADOW", "CANARY", "ACTIVE", "DEPRECATED", "RETIRED"] as const;
/** One of RELEASE_STATES: the canonical name, the only one an answer ever carries. */
export type ReleaseState = (typeof RELEASE_STATES)[number];

/** The older status names, accepted on input and read through this one mapping. */
export const OLDER_RELEASE_STATE_NAMES: Readonly<Record<string, ReleaseState>> = Object.freeze({
  DRAFT: "AVAILABLE",
  EVAL_ONLY: "SHADOW",
  PRODUCTION: "ACTIVE",
  ROLLED_BACK: "DEPRECATED",
});

/** The states a decision may run under (the others are records or candidates). */
export const ENFORCED_RELEASE_STATES: readonly ReleaseState[] = Object.freeze(["CANARY", "ACTIVE"]);

/** The spec's transition table: the states each state may move to. */
export const ALLOWED_RELEASE_TRANSITIONS: Readonly<Record<ReleaseState, readonly ReleaseState[]>> =
  Object.freeze({
    AVAILABLE: ["SHADOW", "RETIRED"],
    SHADOW: ["CANARY", "RETIRED"],
    CANARY: ["ACTIVE", "DEPRECATED", "RETIRED"],
    ACTIVE: ["CANARY", "DEPRECATED", "RETIRED"],
    DEPRECATED: ["CANARY", "RETIRED"],
    RETIRED: [],
  });

const CANONICAL = new Set<string>(RELEASE_STATES);

/**
 * The canonical state a name stands for: a canonical name as is, an older name through
 * OLDER_RELEASE_STATE_NAMES; undefined for anything else (exact, upper-case names only).
 */
export function releaseStateOf(name: string): ReleaseState | undefined {
  if (CANONICAL.has(name)) return name as ReleaseState;
  return Object.hasOwn(OLDER_RELEASE_STATE_NAMES, name) ? OLDER_RELEASE_STATE_NAMES[name] : undefined;
}

/** Whether the table allows `from` → `to`. */
export function isAllowedReleaseTransition(from: ReleaseState, to: ReleaseState): boolean {
  return ALLOWED_RELEASE_TRANSITIONS[from].includes(to);
}
