import { PlatformError } from "../../kernel/platform-error.js";

/** Whom a zero-trust action is about: a user (all their sessions) or one session. */
export type ZeroTrustSubjectKind = "user" | "session";

/** A parsed subject string (`user:<userId>` or `session:<handle>`). */
export interface ZeroTrustSubject {
  readonly kind: ZeroTrustSubjectKind;
  readonly id: string;
}

/** Longest id a subject may carry (user ids and session handles are far shorter). */
export const ZERO_TRUST_SUBJECT_ID_MAX_LENGTH = 200;

// Printable, no whitespace or control characters at all: ids land in audit records, logs and URLs.
const SUBJECT = /^(user|session):([^\s\p{Cc}\p{Cf}]{1,200})$/u;

/** The subject of every session of a user. */
export function zeroTrustUserSubject(userId: string): string {
  return `user:${userId}`;
}

/**
 * The subject of one session. Pass a non-secret handle (e.g. a hash of the session id), never the
 * session cookie's value: subjects are listed by the admin API and written to the audit trail.
 */
export function zeroTrustSessionSubject(sessionHandle: string): string {
  return `session:${sessionHandle}`;
}

/** The kind and id of a subject string, or undefined when it is not `user:<id>` / `session:<id>`. */
export function parseZeroTrustSubject(subject: unknown): ZeroTrustSubject | undefined {
  if (typeof subject !== "string" || subject.length > ZERO_TRUST_SUBJECT_ID_MAX_LENGTH + 8) return undefined;
  const match = SUBJECT.exec(subject);
  return match ? { kind: match[1] as ZeroTrustSubjectKind, id: match[2]! } : undefined;
}

/** Like parseZeroTrustSubject, but throws VALIDATION_FAILED naming the rule. */
export function requireZeroTrustSubject(subject: unknown): ZeroTrustSubject {
  const parsed = parseZeroTrustSubject(subject);
  if (!parsed) {
    throw new PlatformError(
      "VALIDATION_FAILED",
      `A subject is user:<id> or session:<id>, the id 1..${ZERO_TRUST_SUBJECT_ID_MAX_LENGTH} printable characters without spaces (the admin API also takes username:<name>)`,
      { details: { fields: ["subject"] } },
    );
  }
  return parsed;
}

/** The admin API's prefix naming a user by username; it is resolved to `user:<id>` before anything is stored. */
export const ZERO_TRUST_USERNAME_PREFIX = "username:";

// Usernames may hold inner spaces, never control or format characters.
const USERNAME = /^[^\p{Cc}\p{Cf}]{1,200}$/u;

/**
 * The username of a `username:<name>` subject; undefined when `subject` has another prefix. Throws
 * VALIDATION_FAILED for an empty, over-long (200) or control-character name.
 */
export function usernameOfZeroTrustSubject(subject: string): string | undefined {
  if (!subject.startsWith(ZERO_TRUST_USERNAME_PREFIX)) return undefined;
  const name = subject.slice(ZERO_TRUST_USERNAME_PREFIX.length);
  if (!USERNAME.test(name) || name.trim() === "") {
    throw new PlatformError(
      "VALIDATION_FAILED",
      `A username subject is username:<name>, the name 1..${ZERO_TRUST_SUBJECT_ID_MAX_LENGTH} characters without control characters`,
      { details: { fields: ["subject"] } },
    );
  }
  return name;
}
