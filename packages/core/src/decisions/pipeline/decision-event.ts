/** What can ask for a security decision. */
export const DECISION_EVENT_KINDS = [
  /** A sign-in completed (primary sign-in, or the MFA flow's success). */
  "SIGN_IN_COMPLETED",
  /** A request that zero trust sampled found no live action for its caller. */
  "REQUEST_SAMPLED",
  /** One subject was denied `denials.threshold` times within `denials.window`. */
  "REPEATED_DENIALS",
  /** A factor failed below the lockout threshold (a wrong code or passkey), or a flow was presented by a client it is not bound to. */
  "MFA_FAILURE",
  /** Failed factors reached the lockout threshold: the account is locked (a refused send is no lockout). */
  "MFA_LOCKOUT",
] as const;

/** One of DECISION_EVENT_KINDS. */
export type DecisionEventKind = (typeof DECISION_EVENT_KINDS)[number];

/**
 * An occasion for a decision, about one user. `userId` or `username` names the user (the context
 * builder looks the account up); the rest is what the signal carried.
 */
export interface DecisionEvent {
  /** Unique per event (becomes the prompt input's `eventId`). */
  readonly id: string;
  readonly kind: DecisionEventKind;
  /** When it happened, epoch milliseconds. */
  readonly at: number;
  readonly userId?: string;
  readonly username?: string;
  /** The zero-trust handle of the caller's session (never the session id), when known. */
  readonly sessionHandle?: string;
  readonly remoteAddress?: string;
  readonly method?: string;
  readonly target?: string;
  readonly device?: string;
  /** The correlation id of the request that signalled, when it came from one (see correlationIdOf). */
  readonly correlationId?: string;
  /** Counts and codes of the signal (numbers and enum-like words only, never free text). */
  readonly detail?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * How much an event matters when model calls are scarce. `high`: the subject's own behaviour turned
 * risky (repeated denials, MFA failures and lockouts); these draw on a reserve of the caps and, over a
 * cap, still get a recorded fallback decision. `routine`: sign-ins and sampled requests, which every
 * user makes; over a cap they are dropped and the user stays PENDING_ANALYSIS.
 */
export type DecisionEventSeverity = "high" | "routine";

/** The severity of an event kind. */
export function severityOf(kind: DecisionEventKind): DecisionEventSeverity {
  return kind === "REPEATED_DENIALS" || kind === "MFA_FAILURE" || kind === "MFA_LOCKOUT" ? "high" : "routine";
}
