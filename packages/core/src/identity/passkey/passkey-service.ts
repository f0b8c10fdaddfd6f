import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { MAX_USERNAME_INPUT_LENGTH } from "../authentication/password-authenticator.js";
import type { Authentication } from "../authentication/authentication.js";
import type { UserAccount } from "../users/user-account.js";
import type { UserRepository } from "../users/user-repository.js";
import { usernameKey } from "../users/username-key.js";
import { type CredentialDescriptor, decoyCredentials } from "./decoy-credentials.js";
import type { PasskeyCredential } from "./passkey-credential.js";
import type { PasskeyCredentialRepository } from "./passkey-credential-repository.js";
import { passkeyError } from "./passkey-errors.js";
import { passkeyLabel } from "./passkey-label.js";
import type { WebAuthnChallenge, WebAuthnChallengeStore } from "./webauthn-challenge-store.js";
import { parseAuthenticationResponseJson, parseRegistrationResponseJson } from "./webauthn-response-json.js";

/** Default lifetime of an issued challenge: 5 minutes. */
export const DEFAULT_PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Default relying party name. */
export const DEFAULT_PASSKEY_RP_NAME = "platform-identity";
/** Default relying party id. */
export const DEFAULT_PASSKEY_RP_ID = "localhost";
/** Event published (and audited) when a validly signed assertion's counter did not increase. */
export const PASSKEY_COUNTER_REGRESSION_EVENT = "passkey.counter-regression";
/** Event published after a passkey was registered. */
export const PASSKEY_REGISTERED_EVENT = "passkey.registered";
/** Event published after a passkey was deleted. */
export const PASSKEY_DELETED_EVENT = "passkey.deleted";

/** Collaborators and settings of the PasskeyService. */
export interface PasskeyServiceOptions {
  /** Relying party display name (default `platform-identity`). */
  rpName?: string;
  /** Relying party id, the site's domain (default `localhost`). */
  rpId?: string;
  /** The origins a response may come from, read at each verification (exact match, e.g. `http://localhost:8080`). */
  allowedOrigins: () => readonly (string | undefined)[];
  credentials: PasskeyCredentialRepository;
  challenges: WebAuthnChallengeStore;
  users: UserRepository;
  clock: Clock;
  /** Challenge ids, challenges and user handles (`secret(32)`). */
  ids: IdGenerator;
  audit: AuditSink;
  events: EventBus;
  /** How long an issued challenge lives (default 5 minutes); also the browser's ceremony timeout. */
  challengeTtlMs?: number;
  /**
   * HMAC key of the decoy credential ids answered for usernames without passkeys (default: random per
   * process). Give a fixed key when several instances serve one site, so they answer alike.
   */
  decoyKey?: Uint8Array;
}

/** Options issued for one ceremony, and the challenge id the browser must bring back (in its cookie). */
export interface IssuedWebAuthnOptions<T> {
  challengeId: string;
  /** Epoch milliseconds after which the challenge is dead. */
  expiresAt: number;
  /** The JSON for `navigator.credentials.create/get({ publicKey })`, binary fields base64url. */
  options: T;
}

/** The signed-in user a management call acts for. */
export type PasskeyUser = Pick<Authentication, "userId" | "username">;

/** Details of a verification, for the audit trail. */
export interface PasskeyRequestContext {
  remoteAddress?: string;
}

const MAX_CHALLENGE_ID_LENGTH = 256;
const MAX_CAS_ATTEMPTS = 3;

/**
 * Passkey (WebAuthn) registration, sign-in and management over @simplewebauthn/server. Challenges are
 * single use (taken from the store before anything is verified, so a failed attempt burns its
 * challenge too), expire after `challengeTtlMs`, and a registration challenge is bound to the user it
 * was issued to. User verification is required in both ceremonies; registration requires a discoverable
 * credential, so usernameless sign-in and autofill always work. Every outcome is audited.
 */
export class PasskeyService {
  /** Relying party display name. */
  readonly rpName: string;
  /** Relying party id. */
  readonly rpId: string;
  /** Challenge lifetime in milliseconds. */
  readonly challengeTtlMs: number;
  private readonly o: PasskeyServiceOptions;
  private readonly decoyKey: Uint8Array;

  constructor(options: PasskeyServiceOptions) {
    this.o = options;
    this.rpName = options.rpName ?? DEFAULT_PASSKEY_RP_NAME;
    this.rpId = options.rpId ?? DEFAULT_PASSKEY_RP_ID;
    this.challengeTtlMs = options.challengeTtlMs ?? DEFAULT_PASSKEY_CHALLENGE_TTL_MS;
    this.decoyKey = options.decoyKey ?? Buffer.from(options.ids.secret(32), "base64url");
    if (!Number.isFinite(this.challengeTtlMs) || this.challengeTtlMs < 1_000) {
      throw new PlatformError("CONFIGURATION_INVALID", "Passkey challenge TTL must be at least 1 second");
    }
    if (this.rpName.trim() === "" || this.rpId.trim() === "") {
      throw new PlatformError("CONFIGURATION_INVALID", "Passkey rpName and rpId must not be empty");
    }
  }

  /**
   * Creation options for the signed-in user: their WebAuthn handle as `user.id` (a random 32-byte
   * handle made on first use, never the username), their existing passkeys excluded, a discoverable
   * credential and user verification required, no attestation.
   */
  async registrationOptions(
    user: PasskeyUser,
  ): Promise<IssuedWebAuthnOptions<PublicKeyCredentialCreationOptionsJSON>> {
    const account = await this.requireAccount(user);
    const handle = await this.userHandle(account.id);
    const existing = await this.o.credentials.listByUser(account.id);
    const options = await generateRegistrationOptions({
      rpName: this.rpName,
      rpID: this.rpId,
      userName: account.username,
      userDisplayName: account.username,
      userID: bytes(handle),
      challenge: bytes(this.o.ids.secret(32)),
      timeout: this.challengeTtlMs,
      attestationType: "none",
      excludeCredentials: existing.map(descriptor),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    return this.issue(options, "registration", account.id);
  }

  /**
   * Verifies the browser's answer to `registrationOptions` and stores the passkey. Throws
   * VALIDATION_FAILED (malformed response or label), WEBAUTHN_CHALLENGE_INVALID (no live registration
   * challenge of this user), WEBAUTHN_VERIFICATION_FAILED, CONFLICT (credential already registered).
   */
  async verifyRegistration(
    user: PasskeyUser,
    challengeId: string | undefined,
    response: unknown,
    label?: unknown,
  ): Promise<PasskeyCredential> {
    const event = { principal: user.username };
    try {
      const parsed = parseRegistrationResponseJson(response);
      const requestedLabel = passkeyLabel(label, "");
      const challenge = await this.take(challengeId, "registration");
      if (challenge.userId !== user.userId) throw challengeInvalid();
      const account = await this.requireAccount(user);
      const expectedOrigin = this.origins();
      let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verification = await verifyRegistrationResponse({
          response: parsed,
          expectedChallenge: challenge.challenge,
          expectedOrigin,
          expectedRPID: this.rpId,
          requireUserPresence: true,
          requireUserVerification: true,
        });
      } catch (cause) {
        throw verificationFailed(cause);
      }
      const info = verification.registrationInfo;
      if (!verification.verified || !info || info.credential.id !== parsed.id || !info.userVerified) {
        throw verificationFailed();
      }
      const existing = await this.o.credentials.listByUser(account.id);
      const stored = await this.o.credentials.create({
        id: info.credential.id,
        userId: account.id,
        userHandle: await this.userHandle(account.id),
        publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
        counter: info.credential.counter,
        transports: [...(parsed.response.transports ?? [])],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        aaguid: info.aaguid,
        label: requestedLabel || `Passkey ${existing.length + 1}`,
      });
      this.record(
        { ...event, type: "auth.passkey.registered", outcome: "success" },
        {
          userId: account.id,
          credentialId: stored.id,
          deviceType: stored.deviceType,
        },
      );
      await this.o.events.publish(PASSKEY_REGISTERED_EVENT, {
        userId: account.id,
        credentialId: stored.id,
        at: stored.createdAt,
      });
      return stored;
    } catch (error) {
      this.record(
        { ...event, type: "auth.passkey.registration-failed", outcome: "failure" },
        {
          userId: user.userId,
          ...failureData(error),
        },
      );
      throw error;
    }
  }

  /**
   * Assertion options. Without a username (usernameless sign-in, autofill) `allowCredentials` is empty
   * and the browser offers the site's discoverable passkeys. With one, it lists that user's passkeys;
   * a username without passkeys (unknown, or a user who has none) gets one stable decoy id instead, so
   * the answer never tells whether an account exists. Throws VALIDATION_FAILED for a bad username.
   */
  async authenticationOptions(
    username?: unknown,
  ): Promise<IssuedWebAuthnOptions<PublicKeyCredentialRequestOptionsJSON>> {
    let allowCredentials: CredentialDescriptor[] = [];
    if (username !== undefined && username !== null && username !== "") {
      if (
        typeof username !== "string" ||
        username.length > MAX_USERNAME_INPUT_LENGTH ||
        usernameKey(username) === ""
      ) {
        throw new PlatformError("VALIDATION_FAILED", "username must be a non-empty string", {
          details: { field: "username" },
        });
      }
      const account = await this.o.users.findByUsername(username);
      const credentials = account ? await this.o.credentials.listByUser(account.id) : [];
      allowCredentials =
        credentials.length > 0 ? credentials.map(descriptor) : decoyCredentials(this.decoyKey, username);
    }
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      allowCredentials,
      challenge: bytes(this.o.ids.secret(32)),
      timeout: this.challengeTtlMs,
      userVerification: "required",
    });
    return this.issue(options, "authentication", undefined);
  }

  /**
   * Verifies a sign-in assertion and returns the authentication (`method: "passkey"`, factor `hwk`).
   * Throws VALIDATION_FAILED, WEBAUTHN_CHALLENGE_INVALID, WEBAUTHN_VERIFICATION_FAILED (unknown
   * credential, user handle mismatch, origin, RP id, signature, user verification),
   * WEBAUTHN_COUNTER_REGRESSION (published as `passkey.counter-regression`), ACCOUNT_LOCKED,
   * ACCOUNT_DISABLED.
   */
  async verifyAuthentication(
    challengeId: string | undefined,
    response: unknown,
    context: PasskeyRequestContext = {},
  ): Promise<Authentication> {
    const event: Partial<AuditEvent> = { remoteAddress: context.remoteAddress };
    const data: Record<string, unknown> = { method: "passkey" };
    try {
      const parsed = parseAuthenticationResponseJson(response);
      data.credentialId = parsed.id;
      const challenge = await this.take(challengeId, "authentication");
      const credential = await this.o.credentials.findById(parsed.id);
      if (!credential) throw verificationFailed(undefined, "Unknown passkey");
      data.userId = credential.userId;
      const handle = parsed.response.userHandle;
      if (handle !== undefined && !sameBytes(handle, credential.userHandle)) {
        throw verificationFailed(undefined, "User handle does not match the passkey");
      }
      const newCounter = await this.verifyAssertion(parsed, challenge, credential);
      await this.storeCounter(credential, newCounter, context);
      const account = await this.o.users.findById(credential.userId);
      if (!account) throw verificationFailed(undefined, "The passkey's account no longer exists");
      event.principal = account.username;
      if (account.locked) throw new PlatformError("ACCOUNT_LOCKED", "Account is locked");
      if (!account.enabled) throw new PlatformError("ACCOUNT_DISABLED", "Account is disabled");
      const at = this.o.clock.now();
      this.record(
        { ...event, type: "auth.login.success", outcome: "success" },
        {
          ...data,
          username: account.username,
        },
      );
      return Object.freeze({
        userId: account.id,
        username: account.username,
        authorities: Object.freeze([...account.authorities]),
        method: "passkey" as const,
        authenticatedAt: at,
        factors: Object.freeze([Object.freeze({ type: "hwk" as const, at })]),
      });
    } catch (error) {
      this.record(
        { ...event, type: "auth.login.failure", outcome: "failure" },
        { ...data, ...failureData(error) },
      );
      throw error;
    }
  }

  /** The user's passkeys, oldest first. */
  listCredentials(userId: string): Promise<PasskeyCredential[]> {
    return this.o.credentials.listByUser(userId);
  }

  /**
   * Deletes one of the user's own passkeys (the last one too: the account keeps its other sign-in
   * methods). Throws NOT_FOUND for an unknown id or another user's passkey, alike.
   */
  async deleteCredential(user: PasskeyUser, credentialId: string): Promise<void> {
    const deleted =
      credentialId.length > 0 &&
      credentialId.length <= 2_048 &&
      (await this.o.credentials.delete(credentialId, user.userId));
    if (!deleted) throw new PlatformError("NOT_FOUND", "No such passkey");
    this.record(
      { principal: user.username, type: "auth.passkey.deleted", outcome: "success" },
      {
        userId: user.userId,
        credentialId,
      },
    );
    await this.o.events.publish(PASSKEY_DELETED_EVENT, {
      userId: user.userId,
      credentialId,
      at: this.o.clock.now(),
    });
  }

  /** Verifies signature, origin, RP id, challenge and UV; returns the assertion's counter. */
  private async verifyAssertion(
    response: AuthenticationResponseJSON,
    challenge: WebAuthnChallenge,
    credential: PasskeyCredential,
  ): Promise<number> {
    const expectedOrigin = this.origins();
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.challenge,
        expectedOrigin,
        expectedRPID: this.rpId,
        // Counter 0: the library's own regression check would throw a plain Error before the
        // signature is checked; ours runs after it, so only a genuine assertion is reported as a clone.
        credential: { id: credential.id, publicKey: bytes(credential.publicKey), counter: 0 },
        requireUserVerification: true,
      });
      if (!verification.verified || !verification.authenticationInfo.userVerified) {
        throw verificationFailed();
      }
      return verification.authenticationInfo.newCounter;
    } catch (cause) {
      if (isPlatformError(cause)) throw cause;
      throw verificationFailed(cause);
    }
  }

  /** Counter regression check and compare-and-set, re-read and re-checked after a concurrent update. */
  private async storeCounter(
    credential: PasskeyCredential,
    newCounter: number,
    context: PasskeyRequestContext,
  ): Promise<void> {
    let current = credential;
    for (let attempt = 1; ; attempt++) {
      if ((newCounter > 0 || current.counter > 0) && newCounter <= current.counter) {
        await this.reportRegression(current, newCounter, context);
      }
      try {
        await this.o.credentials.updateCounter(current.id, current.version, newCounter, this.o.clock.now());
        return;
      } catch (error) {
        if (!isPlatformError(error) || error.code !== "CONFLICT" || attempt >= MAX_CAS_ATTEMPTS) throw error;
        const fresh = await this.o.credentials.findById(current.id);
        if (!fresh) throw verificationFailed(undefined, "Unknown passkey");
        current = fresh;
      }
    }
  }

  private async reportRegression(
    credential: PasskeyCredential,
    receivedCounter: number,
    context: PasskeyRequestContext,
  ): Promise<never> {
    const payload = {
      credentialId: credential.id,
      userId: credential.userId,
      storedCounter: credential.counter,
      receivedCounter,
      remoteAddress: context.remoteAddress,
      at: this.o.clock.now(),
    };
    this.record(
      { type: "auth.passkey.counter-regression", outcome: "denied", remoteAddress: context.remoteAddress },
      payload,
    );
    await this.o.events.publish(PASSKEY_COUNTER_REGRESSION_EVENT, payload);
    throw passkeyError(
      "WEBAUTHN_COUNTER_REGRESSION",
      "The passkey's signature counter did not increase; the authenticator may have been cloned",
    );
  }

  private async issue<T extends { challenge: string }>(
    options: T,
    purpose: WebAuthnChallenge["purpose"],
    userId: string | undefined,
  ): Promise<IssuedWebAuthnOptions<T>> {
    const challenge: WebAuthnChallenge = {
      id: this.o.ids.secret(32),
      challenge: options.challenge,
      purpose,
      userId,
      expiresAt: this.o.clock.now() + this.challengeTtlMs,
    };
    await this.o.challenges.save(challenge);
    return { challengeId: challenge.id, expiresAt: challenge.expiresAt, options };
  }

  private async take(
    challengeId: string | undefined,
    purpose: WebAuthnChallenge["purpose"],
  ): Promise<WebAuthnChallenge> {
    const found =
      typeof challengeId === "string" && challengeId !== "" && challengeId.length <= MAX_CHALLENGE_ID_LENGTH
        ? await this.o.challenges.take(challengeId, purpose)
        : undefined;
    if (!found) throw challengeInvalid();
    return found;
  }

  private origins(): string[] {
    const origins = this.o.allowedOrigins().filter((o): o is string => typeof o === "string" && o !== "");
    if (origins.length === 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "No allowed origin is known for passkeys");
    }
    return origins;
  }

  private async requireAccount(user: PasskeyUser): Promise<UserAccount> {
    const account = await this.o.users.findById(user.userId);
    if (!account) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    if (account.locked) throw new PlatformError("ACCOUNT_LOCKED", "Account is locked");
    if (!account.enabled) throw new PlatformError("ACCOUNT_DISABLED", "Account is disabled");
    return account;
  }

  private async userHandle(userId: string): Promise<string> {
    return (
      (await this.o.credentials.findUserHandle(userId)) ??
      (await this.o.credentials.saveUserHandle(userId, this.o.ids.secret(32)))
    );
  }

  private record(event: AuditEvent, data: Record<string, unknown>): void {
    try {
      this.o.audit.record({ ...event, data: { ...event.data, ...data } });
    } catch {
      // A broken sink must not turn a ceremony into a 500 or hide its real error.
    }
  }
}

function descriptor(c: PasskeyCredential): CredentialDescriptor {
  return c.transports.length > 0 ? { id: c.id, transports: [...c.transports] } : { id: c.id };
}

function bytes(base64url: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(base64url, "base64url"));
}

function sameBytes(a: string, b: string): boolean {
  return Buffer.from(a, "base64url").equals(Buffer.from(b, "base64url"));
}

function challengeInvalid(): PlatformError {
  return passkeyError(
    "WEBAUTHN_CHALLENGE_INVALID",
    "No valid passkey challenge for this browser; request new options",
  );
}

function verificationFailed(cause?: unknown, message = "Passkey verification failed"): PlatformError {
  return passkeyError("WEBAUTHN_VERIFICATION_FAILED", message, cause === undefined ? {} : { cause });
}

function failureData(error: unknown): Record<string, unknown> {
  const reason = isPlatformError(error) ? error.code : "INTERNAL_ERROR";
  const cause = isPlatformError(error) ? error.cause : error;
  return cause instanceof Error ? { reason, detail: cause.message.slice(0, 300) } : { reason };
}
