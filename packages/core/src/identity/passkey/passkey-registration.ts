import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { PlatformError } from "../../kernel/platform-error.js";
import type { UserAccount } from "../users/user-account.js";
import { auditOrigin, type PasskeyRequestContext } from "./passkey-authentication.js";
import {
  bytes,
  challengeInvalid,
  descriptor,
  failureData,
  type IssuedWebAuthnOptions,
  type PasskeyCeremony,
  type PasskeyUser,
  verificationFailed,
} from "./passkey-ceremony.js";
import type { PasskeyCredential } from "./passkey-credential.js";
import { PASSKEY_REGISTERED_EVENT } from "./passkey-events.js";
import { passkeyLabel } from "./passkey-label.js";
import { parseRegistrationResponseJson } from "./webauthn-response-json.js";

/**
 * The registration ceremony of the PasskeyService: creation options for a signed-in user, and the
 * verification that stores the new passkey. The challenge is bound to the user it was issued to.
 */
export class PasskeyRegistration {
  constructor(private readonly ceremony: PasskeyCeremony) {}

  /**
   * Creation options for the signed-in user: their WebAuthn handle as `user.id` (a random 32-byte
   * handle made on first use, never the username), their existing passkeys excluded, a discoverable
   * credential and user verification required, no attestation.
   */
  async options(user: PasskeyUser): Promise<IssuedWebAuthnOptions<PublicKeyCredentialCreationOptionsJSON>> {
    const { o, settings } = this.ceremony;
    const account = await this.requireAccount(user);
    const handle = await this.userHandle(account.id);
    const existing = await o.credentials.listByUser(account.id);
    const options = await generateRegistrationOptions({
      rpName: settings.rpName,
      rpID: settings.rpId,
      userName: account.username,
      userDisplayName: account.username,
      userID: bytes(handle),
      challenge: bytes(o.ids.secret(32)),
      timeout: settings.challengeTtlMs,
      attestationType: "none",
      excludeCredentials: existing.map(descriptor),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    return this.ceremony.issue(options, "registration", account.id);
  }

  /**
   * Verifies the browser's answer to `options` and stores the passkey. Throws VALIDATION_FAILED
   * (malformed response or label), WEBAUTHN_CHALLENGE_INVALID (no live registration challenge of this
   * user), WEBAUTHN_VERIFICATION_FAILED, CONFLICT (credential already registered).
   */
  async verify(
    user: PasskeyUser,
    challengeId: string | undefined,
    response: unknown,
    label?: unknown,
    context: PasskeyRequestContext = {},
  ): Promise<PasskeyCredential> {
    const { o, settings } = this.ceremony;
    const event = { ...auditOrigin(context), principal: user.username };
    try {
      const parsed = parseRegistrationResponseJson(response);
      const requestedLabel = passkeyLabel(label, "");
      const challenge = await this.ceremony.take(challengeId, "registration");
      if (challenge.userId !== user.userId) throw challengeInvalid();
      const account = await this.requireAccount(user);
      const expectedOrigin = this.ceremony.origins();
      let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verification = await verifyRegistrationResponse({
          response: parsed,
          expectedChallenge: challenge.challenge,
          expectedOrigin,
          expectedRPID: settings.rpId,
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
      const existing = await o.credentials.listByUser(account.id);
      const stored = await o.credentials.create({
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
      this.ceremony.record(
        { ...event, type: "auth.passkey.registered", outcome: "success" },
        {
          userId: account.id,
          credentialId: stored.id,
          deviceType: stored.deviceType,
        },
      );
      await o.events.publish(PASSKEY_REGISTERED_EVENT, {
        userId: account.id,
        credentialId: stored.id,
        at: stored.createdAt,
      });
      return stored;
    } catch (error) {
      this.ceremony.record(
        { ...event, type: "auth.passkey.registration-failed", outcome: "failure" },
        {
          userId: user.userId,
          ...failureData(error),
        },
      );
      throw error;
    }
  }

  private async requireAccount(user: PasskeyUser): Promise<UserAccount> {
    const account = await this.ceremony.o.users.findById(user.userId);
    if (!account) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    if (account.locked) throw new PlatformError("ACCOUNT_LOCKED", "Account is locked");
    if (!account.enabled) throw new PlatformError("ACCOUNT_DISABLED", "Account is disabled");
    return account;
  }

  private async userHandle(userId: string): Promise<string> {
    const { credentials, ids } = this.ceremony.o;
    return (
      (await credentials.findUserHandle(userId)) ?? (await credentials.saveUserHandle(userId, ids.secret(32)))
    );
  }
}
