import type { Authentication, Platform } from "@keyward/core";
import { checkEmailAddress, checkNewUsername } from "@keyward/core/adapter-kit";
import { PlatformError } from "@keyward/core/errors";
import { AuditSink, Clock, PasswordHasher, type UserAccount, UserRepository } from "@keyward/core/ports";

/** What a first administrator holds. */
export const ADMINISTRATOR_AUTHORITIES = ["ROLE_USER", "ROLE_ADMIN"] as const;

/** Shortest and longest password accepted, as the users admin API's rule (long ones bound the hashing work). */
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;
/** Largest page of accounts read at once (UserRepository.list's cap). */
const PAGE = 500;

/** True when any account holds ROLE_ADMIN (enabled or not: setup is over once one was made). */
export async function anyAdministrator(users: UserRepository): Promise<boolean> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await users.list({ offset, limit: PAGE });
    if (page.some((account) => account.authorities.includes("ROLE_ADMIN"))) return true;
    if (page.length < PAGE) return false;
  }
}

/**
 * Checks a first administrator's username and password before anything is spent or hashed: the
 * username by the rule every UserRepository runs (`checkNewUsername`), the password as the users admin
 * API does (8 to 256 characters, no control characters). VALIDATION_FAILED names the field, never
 * the password.
 */
export function checkNewAdministrator(
  username: unknown,
  password: unknown,
  email?: unknown,
): { username: string; password: string; email?: string } {
  if (typeof username !== "string" || username.length === 0 || username.length > 1024) {
    throw invalid("username", "must be a non-empty string");
  }
  checkNewUsername(username);
  if (typeof password !== "string") throw invalid("password", "must be a string");
  const length = [...password].length;
  if (length < MIN_PASSWORD || length > MAX_PASSWORD) {
    throw invalid("password", `must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
  for (let i = 0; i < password.length; i++) {
    const c = password.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) throw invalid("password", "must not contain control characters");
  }
  // A lone surrogate passes the length and character checks but not the hasher (after the token was
  // spent, when it was checked here only): refused first, as the users admin API refuses it.
  if (hasLoneSurrogate(password)) throw invalid("password", "must be well-formed Unicode");
  // Optional; absent or blank is none. With SMTP delivery an administrator needs it for the mailed code.
  if (email === undefined || email === null || email === "") return { username, password };
  return { username, password, email: checkEmailAddress(email) };
}

/** A system actor that creates an administrator (audit records name it; it signs nobody in). */
export function systemActor(username: string, now: number): Authentication {
  return {
    userId: "system",
    username,
    authorities: ["ROLE_ADMIN"],
    method: "form",
    authenticatedAt: now,
    factors: [],
  };
}

/**
 * Creates an enabled administrator account (ROLE_USER, ROLE_ADMIN) with the platform's password
 * hasher and audits `user.created` under `actor` (never the password). CONFLICT when the name is taken.
 */
export async function createAdministrator(
  platform: Platform,
  request: {
    username: string;
    password: string;
    email?: string | undefined;
    actor: Authentication;
    audit?: Record<string, unknown>;
  },
): Promise<UserAccount> {
  const checked = checkNewAdministrator(request.username, request.password, request.email);
  const authorities = [...ADMINISTRATOR_AUTHORITIES];
  const created = await platform.resolve(UserRepository).create({
    username: checked.username,
    passwordHash: await platform.resolve(PasswordHasher).hash(checked.password),
    authorities,
    ...(checked.email === undefined ? {} : { email: checked.email }),
  });
  platform.resolve(AuditSink).record({
    type: "user.created",
    outcome: "success",
    at: platform.resolve(Clock).now(),
    principal: request.actor.username,
    data: { ...request.audit, actorId: request.actor.userId, userId: created.id, authorities },
  });
  return created;
}

function invalid(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}

/** True when `text` holds a UTF-16 surrogate without its pair (not well-formed Unicode). */
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    }
  }
  return false;
}
