import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { PlatformError } from "../../kernel/platform-error.js";
import type { Authentication } from "../authentication/authentication.js";
import { auditOrigin, PasskeyAuthentication, type PasskeyRequestContext } from "./passkey-authentication.js";
import { type IssuedWebAuthnOptions, PasskeyCeremony, type PasskeyUser } from "./passkey-ceremony.js";
import type { PasskeyCredential } from "./passkey-credential.js";
import { PASSKEY_DELETED_EVENT } from "./passkey-events.js";
import { PasskeyRegistration } from "./passkey-registration.js";
import {
  DEFAULT_PASSKEY_CHALLENGE_TTL_MS,
  DEFAULT_PASSKEY_RP_ID,
  DEFAULT_PASSKEY_RP_NAME,
  type PasskeyServiceOptions,
} from "./passkey-service-options.js";

export type { PasskeyRequestContext } from "./passkey-authentication.js";
export type { IssuedWebAuthnOptions, PasskeyUser } from "./passkey-ceremony.js";
export {
  PASSKEY_COUNTER_REGRESSION_EVENT,
  PASSKEY_DELETED_EVENT,
  PASSKEY_REGISTERED_EVENT,
} from "./passkey-events.js";
export {
  DEFAULT_PASSKEY_CHALLENGE_TTL_MS,
  DEFAULT_PASSKEY_RP_ID,
  DEFAULT_PASSKEY_RP_NAME,
  type PasskeyServiceOptions,
} from "./passkey-service-options.js";

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
  private readonly ceremony: PasskeyCeremony;
  private readonly registration: PasskeyRegistration;
  private readonly authentication: PasskeyAuthentication;

  constructor(options: PasskeyServiceOptions) {
    this.o = options;
    this.rpName = options.rpName ?? DEFAULT_PASSKEY_RP_NAME;
    this.rpId = options.rpId ?? DEFAULT_PASSKEY_RP_ID;
    this.challengeTtlMs = options.challengeTtlMs ?? DEFAULT_PASSKEY_CHALLENGE_TTL_MS;
    if (!Number.isFinite(this.challengeTtlMs) || this.challengeTtlMs < 1_000) {
      throw new PlatformError("CONFIGURATION_INVALID", "Passkey challenge TTL must be at least 1 second");
    }
    if (this.rpName.trim() === "" || this.rpId.trim() === "") {
      throw new PlatformError("CONFIGURATION_INVALID", "Passkey rpName and rpId must not be empty");
    }
    this.ceremony = new PasskeyCeremony(options, {
      rpName: this.rpName,
      rpId: this.rpId,
      challengeTtlMs: this.challengeTtlMs,
    });
    this.registration = new PasskeyRegistration(this.ceremony);
    this.authentication = new PasskeyAuthentication(this.ceremony);
  }

  /**
   * Creation options for the signed-in user: their WebAuthn handle as `user.id` (a random 32-byte
   * handle made on first use, never the username), their existing passkeys excluded, a discoverable
   * credential and user verification required, no attestation.
   */
  registrationOptions(
    user: PasskeyUser,
  ): Promise<IssuedWebAuthnOptions<PublicKeyCredentialCreationOptionsJSON>> {
    return this.registration.options(user);
  }

  /**
   * Verifies the browser's answer to `registrationOptions` and stores the passkey. Throws
   * VALIDATION_FAILED (malformed response or label), WEBAUTHN_CHALLENGE_INVALID (no live registration
   * challenge of this user), WEBAUTHN_VERIFICATION_FAILED, CONFLICT (credential already registered).
   */
  verifyRegistration(
    user: PasskeyUser,
    challengeId: string | undefined,
    response: unknown,
    label?: unknown,
    context: PasskeyRequestContext = {},
  ): Promise<PasskeyCredential> {
    return this.registration.verify(user, challengeId, response, label, context);
  }

  /**
   * Sign-in assertion options, the same for every caller: `allowCredentials` is empty whether a
   * username is given or not (passkeys are discoverable), so the answer never tells whether an account
   * exists or how many passkeys it has, and no account is looked up. A username is only checked for
   * shape (VALIDATION_FAILED when malformed).
   */
  authenticationOptions(
    username?: unknown,
  ): Promise<IssuedWebAuthnOptions<PublicKeyCredentialRequestOptionsJSON>> {
    return this.authentication.options(username);
  }

  /**
   * Assertion options bound to a user who is already known (the MFA passkey factor, after the
   * password): `allowCredentials` lists that user's passkeys.
   */
  authenticationOptionsForUser(
    user: PasskeyUser,
  ): Promise<IssuedWebAuthnOptions<PublicKeyCredentialRequestOptionsJSON>> {
    return this.authentication.optionsForUser(user.userId);
  }

  /**
   * Verifies a sign-in assertion and returns the authentication (`method: "passkey"`, factor `hwk`).
   * Throws VALIDATION_FAILED, WEBAUTHN_CHALLENGE_INVALID, WEBAUTHN_VERIFICATION_FAILED (unknown
   * credential, user handle mismatch, origin, RP id, signature, user verification),
   * WEBAUTHN_COUNTER_REGRESSION (published as `passkey.counter-regression`), ACCOUNT_LOCKED,
   * ACCOUNT_DISABLED.
   */
  verifyAuthentication(
    challengeId: string | undefined,
    response: unknown,
    context: PasskeyRequestContext = {},
  ): Promise<Authentication> {
    return this.authentication.verify(challengeId, response, context);
  }

  /** The user's passkeys, oldest first. */
  listCredentials(userId: string): Promise<PasskeyCredential[]> {
    return this.o.credentials.listByUser(userId);
  }

  /**
   * Deletes one of the user's own passkeys (the last one too: the account keeps its other sign-in
   * methods). Throws NOT_FOUND for an unknown id or another user's passkey, alike.
   */
  async deleteCredential(
    user: PasskeyUser,
    credentialId: string,
    context: PasskeyRequestContext = {},
  ): Promise<void> {
    const deleted =
      credentialId.length > 0 &&
      credentialId.length <= 2_048 &&
      (await this.o.credentials.delete(credentialId, user.userId));
    if (!deleted) throw new PlatformError("NOT_FOUND", "No such passkey");
    this.ceremony.record(
      { ...auditOrigin(context), principal: user.username, type: "auth.passkey.deleted", outcome: "success" },
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
}
