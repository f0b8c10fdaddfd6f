import type { DependencyContainer, InjectionToken } from "tsyringe";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "./authentication.js";

/**
 * Where identity asks whether a known user may go on: `sign-in` (every method, after the credentials
 * are verified and before a session or token exists), `token-refresh` (before the refresh token is
 * spent), `step-up` (when one starts and before it upgrades the session or issues a token), `me`
 * (`GET /api/me`), `request` (every request that carries a session or bearer authentication, on
 * every chain, as soon as the security context is loaded) and `credential` (before a signed-in user
 * adds or removes a credential: passkey registration options, registration and deletion; a held
 * account must not enrol the factor that would clear its own hold). Logout is never checked: whoever
 * is refused can always sign out.
 */
export type SubjectCheckpoint = "sign-in" | "token-refresh" | "step-up" | "me" | "request" | "credential";

/** What a SubjectStatusCheck is asked. */
export interface SubjectStatusQuery {
  readonly checkpoint: SubjectCheckpoint;
  /** The user just authenticated (sign-in), the refresh token's sign-in, or the caller. */
  readonly authentication: Authentication;
  /** The request (a check may read the caller's session from it; sign-in and refresh carry none that counts). */
  readonly exchange: HttpExchange;
}

/**
 * A feature's say on whether a user may sign in, refresh tokens, step up, read `/api/me` or make any
 * authenticated request (zero trust is one). A family: every member is asked in registration order and refuses by throwing a
 * PlatformError with a client status (e.g. 403 ZERO_TRUST_BLOCKED); then nothing is issued. Identity
 * registers no member, so by default everyone who authenticates goes on.
 */
export interface SubjectStatusCheck {
  /** A literal name, for diagnostics. */
  readonly id: string;
  /**
   * The checkpoints this member judges (absent: every one); the gate asks it at those only, so a
   * member with nothing to say about `request` costs that checkpoint (every request) nothing.
   */
  readonly checkpoints?: readonly SubjectCheckpoint[];
  check(query: SubjectStatusQuery): Promise<void>;
}

/** DI token of the SubjectStatusCheck family (register members with `registerMember`). */
export const SubjectStatusCheck: InjectionToken<SubjectStatusCheck> = Symbol.for(
  "platform.SubjectStatusCheck",
);

const AsyncFunction = (async () => {}).constructor;

/** Checks known never to throw synchronously and always to answer a promise (answersWithoutThrowing). */
const WITHOUT_THROWING = new WeakSet<SubjectStatusCheck["check"]>();

/**
 * Marks a check function that is not an async function but never throws synchronously and always
 * answers a promise (a refusal is a rejection): a lone member with such a check is asked directly,
 * like an async function, without a wrapper of the gate's. Internal: not part of `/ports`.
 */
export function answersWithoutThrowing(check: SubjectStatusCheck["check"]): void {
  WITHOUT_THROWING.add(check);
}

/**
 * The settled "goes on" a check or gate may hand back when it decided without waiting (from memory,
 * or with nothing to ask): a caller that gets this very promise may go on at once, without a `.then`
 * (`/api/me`). Any other promise is waited on as usual. Internal: not part of `/ports`.
 */
export const SUBJECT_GOES_ON: Promise<void> = Promise.resolve();

/** Asks every check; resolves when all let the user go on, rejects with the first refusal. */
export type SubjectStatusGate = (query: SubjectStatusQuery) => Promise<void>;

/**
 * The gate over `checks`: at each checkpoint, the members that judge it (`checkpoints`), in order;
 * with none it lets everyone through (SUBJECT_GOES_ON), and a lone member is asked
 * directly (askAlone).
 */
export function subjectStatusGate(checks: readonly SubjectStatusCheck[]): SubjectStatusGate {
  const members = [...checks];
  if (members.length === 0) return () => SUBJECT_GOES_ON;
  const byCheckpoint = new Map<SubjectCheckpoint, readonly SubjectStatusCheck[]>();
  return (query) => {
    let asked = byCheckpoint.get(query.checkpoint);
    if (asked === undefined) {
      asked = members.filter((m) => m.checkpoints === undefined || m.checkpoints.includes(query.checkpoint));
      byCheckpoint.set(query.checkpoint, asked);
    }
    const only = asked[0];
    if (asked.length === 1 && only !== undefined) return askAlone(only, query);
    return askEach(asked, query);
  };
}

/**
 * The gate at one checkpoint, resolved once: the members that judge it; a lone member whose check is
 * an async function is the gate itself (its check, bound), so the checkpoint runs no function of the
 * gate's own (the chains' `request` checkpoint: every authenticated request), and so is one marked
 * `answersWithoutThrowing`; any other lone member is asked through askAlone.
 */
export function subjectStatusGateAt(
  checks: readonly SubjectStatusCheck[],
  checkpoint: SubjectCheckpoint,
): SubjectStatusGate {
  const asked = checks.filter((m) => m.checkpoints === undefined || m.checkpoints.includes(checkpoint));
  const only = asked[0];
  if (asked.length === 1 && only !== undefined) {
    if (only.check.constructor === AsyncFunction || WITHOUT_THROWING.has(only.check)) {
      return only.check.bind(only);
    }
    return (query) => askAlone(only, query);
  }
  return subjectStatusGate(asked);
}

/**
 * One member's check, asked without an async layer of the gate's: an async function's promise as it
 * is; a plain function's answer as it is when it is a promise (a member that answers from memory
 * hands back a settled one), its synchronous throw as a rejection, anything else as a settled promise.
 */
function askAlone(member: SubjectStatusCheck, query: SubjectStatusQuery): Promise<void> {
  if (member.check.constructor === AsyncFunction || WITHOUT_THROWING.has(member.check)) {
    return member.check(query);
  }
  try {
    const answer: unknown = member.check(query);
    return answer instanceof Promise ? (answer as Promise<void>) : Promise.resolve(answer as undefined);
  } catch (error) {
    return Promise.reject(error);
  }
}

async function askEach(members: readonly SubjectStatusCheck[], query: SubjectStatusQuery): Promise<void> {
  for (const member of members) await member.check(query);
}

/** The members registered in `container` (none when the family is empty: `resolveAll` would throw). */
export function subjectStatusChecksOf(container: DependencyContainer): SubjectStatusCheck[] {
  return container.isRegistered(SubjectStatusCheck, true) ? container.resolveAll(SubjectStatusCheck) : [];
}
