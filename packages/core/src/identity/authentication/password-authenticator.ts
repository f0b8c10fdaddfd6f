import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { PasswordHasher } from "../password/password-hasher.js";
import type { LoginThrottle, ThrottleKey } from "../throttle/login-throttle.js";
import { throttleAddressKey } from "../throttle/throttle-keys.js";
import type { UserAccount } from "../users/user-account.js";
import type { UserRepository } from "../users/user-repository.js";
import { usernameKey } from "../users/username-key.js";
import { AttemptSerializer } from "./attempt-serializer.js";
import { type Authentication, stampOf } from "./authentication.js";
import type { PrimaryAuthenticator } from "../login/primary-authenticator.js";

/** Longest username accepted, in UTF-16 code units, checked before anything else. */
export const MAX_USERNAME_INPUT_LENGTH = 256;
/** Longest password accepted, in UTF-16 code units (the scrypt hasher's MAX_PASSWORD_LENGTH). */
export const MAX_PASSWORD_INPUT_LENGTH = 1024;
/** Default of `PasswordAuthenticatorOptions.maxPendingAttemptsPerAddress`. */
export const MAX_PENDING_ATTEMPTS_PER_ADDRESS = 32;

/** Collaborators of the PasswordAuthenticator. */
export interface PasswordAuthenticatorOptions {
  users: UserRepository;
  hasher: PasswordHasher;
  throttle: LoginThrottle;
  /** Stamps `authenticatedAt` and the password factor. */
  clock: Clock;
  /** Receives one event per attempt; never a password. */
  audit: AuditSink;
  /**
   * Attempts from one client address run one at a time (so a burst cannot outrun the throttle); this
   * many may be running or waiting, further ones get TOO_MANY_ATTEMPTS at once. Default 32.
   */
  maxPendingAttemptsPerAddress?: number;
  /** Told of a wrong password for a known user (feeds the adaptive MFA's failed-attempt velocity). */
  onKnownUserFailure?: (userId: string) => Promise<void>;
}

/** One username-and-password sign-in, as a form post or a REST body delivered it (fields unchecked). */
export interface PasswordLoginInput {
  username: unknown;
  password: unknown;
  /** The client address; the throttle counts by it. */
  remoteAddress: string;
  /** The chain method that received the credentials. */
  method: "form" | "rest";
  /** The request's correlation id (the binding's), copied into the sign-in's audit events. */
  correlationId?: string;
}

/** What every audit event of one sign-in carries: who, from where, and the request's correlation id. */
type SignInAuditFields = Pick<AuditEvent, "principal" | "remoteAddress" | "correlationId">;

const BAD_CREDENTIALS_MESSAGE = "Bad credentials";
const TOO_MANY_ATTEMPTS_MESSAGE = "Too many sign-in attempts; try again later";

/**
 * Primary sign-in with a username and password. In order: input validation (costs no hash, counts no
 * failure), the throttle (before any hashing: a blocked attempt costs nothing), the user lookup, exactly
 * one password verification whether or not the user exists (`dummyVerify` for unknown and passwordless
 * accounts), then account status. Unknown user and wrong password give the same error. "Locked" and
 * "disabled" are told only to a caller who gave the right password; they are not counted as throttle
 * failures (the password was not guessed wrong) nor do they clear the counter (the sign-in did not
 * succeed). Only BAD_CREDENTIALS counts as a failure. Every outcome is audited.
 */
export class PasswordAuthenticator implements PrimaryAuthenticator {
  private readonly users: UserRepository;
  private readonly hasher: PasswordHasher;
  private readonly throttle: LoginThrottle;
  private readonly clock: Clock;
  private readonly audit: AuditSink;
  private readonly serializer: AttemptSerializer;
  private readonly onKnownUserFailure: ((userId: string) => Promise<void>) | undefined;

  constructor(options: PasswordAuthenticatorOptions) {
    this.onKnownUserFailure = options.onKnownUserFailure;
    this.users = options.users;
    this.hasher = options.hasher;
    this.throttle = options.throttle;
    this.clock = options.clock;
    this.audit = options.audit;
    this.serializer = new AttemptSerializer(
      options.maxPendingAttemptsPerAddress ?? MAX_PENDING_ATTEMPTS_PER_ADDRESS,
    );
  }

  /**
   * Signs a user in or throws PlatformError VALIDATION_FAILED, TOO_MANY_ATTEMPTS, BAD_CREDENTIALS,
   * ACCOUNT_LOCKED or ACCOUNT_DISABLED (infrastructure errors pass through, audited as failures).
   */
  async authenticate(input: PasswordLoginInput): Promise<Authentication> {
    const event: SignInAuditFields = {
      principal: auditPrincipal(input.username),
      remoteAddress: input.remoteAddress,
      ...(input.correlationId ? { correlationId: input.correlationId } : {}),
    };
    const credentials = validCredentials(input);
    if (!credentials.ok) {
      this.record({ ...event, type: "auth.login.failure", outcome: "failure" }, input.method, {
        reason: "VALIDATION_FAILED",
      });
      throw new PlatformError("VALIDATION_FAILED", "username and password are required", {
        details: { fields: credentials.fields },
      });
    }
    const key: ThrottleKey = { username: credentials.username, remoteAddress: input.remoteAddress };
    const attempt = this.serializer.run(throttleAddressKey(input.remoteAddress), () =>
      this.attempt(key, credentials.password, input.method, event),
    );
    if (!attempt) {
      this.record({ ...event, type: "auth.login.throttled", outcome: "denied" }, input.method, {
        scope: "pending",
        retryAfterSeconds: 1,
      });
      throw tooManyAttempts(1_000);
    }
    return attempt;
  }

  private async attempt(
    key: ThrottleKey,
    password: string,
    method: "form" | "rest",
    event: SignInAuditFields,
  ): Promise<Authentication> {
    // Set once this attempt's outcome is audited, so the catch below audits only unexpected errors.
    let audited = false;
    const failure = (reason: string, data: Record<string, unknown> = {}): void => {
      audited = true;
      this.record({ ...event, type: "auth.login.failure", outcome: "failure" }, method, { reason, ...data });
    };
    try {
      const verdict = await this.throttle.check(key);
      if (!verdict.allowed) {
        const error = tooManyAttempts(verdict.retryAfterMs);
        audited = true;
        this.record({ ...event, type: "auth.login.throttled", outcome: "denied" }, method, {
          scope: verdict.scope,
          retryAfterSeconds: error.details?.retryAfterSeconds,
        });
        throw error;
      }
      const user = await this.users.findByUsername(key.username);
      const hash = user?.passwordHash;
      let matches = false;
      if (hash === undefined) await this.hasher.dummyVerify(password);
      else matches = await this.hasher.verify(password, hash);
      if (!user || hash === undefined || !matches) {
        await this.throttle.recordFailure(key);
        if (user) await this.onKnownUserFailure?.(user.id).catch(() => {});
        failure("BAD_CREDENTIALS");
        throw new PlatformError("BAD_CREDENTIALS", BAD_CREDENTIALS_MESSAGE);
      }
      if (user.locked) {
        failure("ACCOUNT_LOCKED", { userId: user.id });
        throw new PlatformError("ACCOUNT_LOCKED", "Account is locked");
      }
      if (!user.enabled) {
        failure("ACCOUNT_DISABLED", { userId: user.id });
        throw new PlatformError("ACCOUNT_DISABLED", "Account is disabled");
      }
      await this.throttle.recordSuccess(key);
      await this.upgradeHash(user, hash, password, event);
      const at = this.clock.now();
      this.record({ ...event, type: "auth.login.success", outcome: "success" }, method, {
        userId: user.id,
        username: user.username,
      });
      return Object.freeze({
        userId: user.id,
        username: user.username,
        authorities: Object.freeze([...user.authorities]),
        method,
        authenticatedAt: at,
        factors: Object.freeze([Object.freeze({ type: "pwd" as const, at })]),
        ...stampOf(user),
      });
    } catch (error) {
      if (!audited) failure(isPlatformError(error) ? error.code : "INTERNAL_ERROR");
      throw error;
    }
  }

  /**
   * Re-hashes with the current parameters after a successful sign-in, best effort: a concurrent update
   * (CONFLICT) is ignored, the next sign-in tries again; any other failure is audited and the sign-in
   * still succeeds, because the password was verified and the stored hash is still valid.
   */
  private async upgradeHash(
    user: UserAccount,
    hash: string,
    password: string,
    event: SignInAuditFields,
  ): Promise<void> {
    if (!this.hasher.needsRehash(hash)) return;
    try {
      const passwordHash = await this.hasher.hash(password);
      await this.users.update({ ...user, passwordHash });
      this.safeRecord({
        ...event,
        type: "auth.password.rehashed",
        outcome: "info",
        data: { userId: user.id },
      });
    } catch (error) {
      if (isPlatformError(error) && error.code === "CONFLICT") return;
      this.safeRecord({
        ...event,
        type: "auth.password.rehash-failed",
        outcome: "failure",
        data: { userId: user.id, reason: isPlatformError(error) ? error.code : "INTERNAL_ERROR" },
      });
    }
  }

  private record(event: AuditEvent, method: "form" | "rest", data: Record<string, unknown>): void {
    this.safeRecord({ ...event, data: { method, ...data } });
  }

  /** AuditSink.record must not throw; if a sink does anyway, the sign-in outcome stands. */
  private safeRecord(event: AuditEvent): void {
    try {
      this.audit.record(event);
    } catch {
      // A broken sink must not turn a sign-in into a 500 or hide its real error.
    }
  }
}

function tooManyAttempts(retryAfterMs: number): PlatformError {
  return new PlatformError("TOO_MANY_ATTEMPTS", TOO_MANY_ATTEMPTS_MESSAGE, {
    details: { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
  });
}

type CredentialsCheck =
  | { ok: true; username: string; password: string }
  | { ok: false; fields: ("username" | "password")[] };

function validCredentials(input: PasswordLoginInput): CredentialsCheck {
  const { username, password } = input;
  const fields: ("username" | "password")[] = [];
  const usernameOk =
    typeof username === "string" &&
    username.length <= MAX_USERNAME_INPUT_LENGTH &&
    usernameKey(username) !== "";
  const passwordOk =
    typeof password === "string" && password !== "" && password.length <= MAX_PASSWORD_INPUT_LENGTH;
  if (!usernameOk) fields.push("username");
  if (!passwordOk) fields.push("password");
  return usernameOk && passwordOk
    ? { ok: true, username: username as string, password: password as string }
    : { ok: false, fields };
}

/** The submitted username as the audit shows it: a string cut to 256 units (not mid-pair), else none. */
function auditPrincipal(username: unknown): string | undefined {
  if (typeof username !== "string") return undefined;
  if (username.length <= MAX_USERNAME_INPUT_LENGTH) return username;
  const cut = username.slice(0, MAX_USERNAME_INPUT_LENGTH);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
