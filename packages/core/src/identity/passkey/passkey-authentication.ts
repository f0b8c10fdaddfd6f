import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from "@simplewebauthn/server";
import type { AuditEvent } from "../../kernel/audit-sink.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { MAX_USERNAME_INPUT_LENGTH } from "../authentication/password-authenticator.js";
import { type Authentication, stampOf } from "../authentication/authentication.js";
import { usernameKey } from "../users/username-key.js";
import {
  bytes,
  type CredentialDescriptor,
  descriptor,
  failureData,
  type IssuedWebAuthnOptions,
  type PasskeyCeremony,
  verificationFailed,
} from "./passkey-ceremony.js";
import type { PasskeyCredential } from "./passkey-credential.js";
import { passkeyError } from "./passkey-errors.js";
import { PASSKEY_COUNTER_REGRESSION_EVENT } from "./passkey-events.js";
import type { WebAuthnChallenge } from "./webauthn-challenge-store.js";
import { parseAuthenticationResponseJson } from "./webauthn-response-json.js";

/** Details of a verification, for the audit trail. */
export interface PasskeyRequestContext {
  remoteAddress?: string;
  /** The request's correlation id (see correlationIdOf), copied into the ceremony's audit events. */
  correlationId?: string;
}

/** The audit fields of a ceremony's request: where it came from and its correlation id. */
export function auditOrigin(
  context: PasskeyRequestContext,
): Pick<AuditEvent, "remoteAddress" | "correlationId"> {
  return {
    ...(context.remoteAddress === undefined ? {} : { remoteAddress: context.remoteAddress }),
    ...(context.correlationId === undefined ? {} : { correlationId: context.correlationId }),
  };
}

const MAX_CAS_ATTEMPTS = 3;

/**
 * The sign-in ceremony of the PasskeyService: assertion options (the same for every username), the
 * options of a known user's second factor, and the verification that checks the assertion and the
 * signature counter.
 */
export class PasskeyAuthentication {
  constructor(private readonly ceremony: PasskeyCeremony) {}

  /**
   * Sign-in assertion options. `allowCredentials` is empty for every caller, a username given or not:
   * our passkeys are discoverable (resident keys are required at registration) and user verification is
   * required, so the browser offers the site's passkeys itself. The answer therefore has one shape for a
   * known user with any number of passkeys, a user without any and an unknown name, and no user or
   * credential is looked up, so the work (and its duration) is the same too. A username is only checked
   * for shape: VALIDATION_FAILED when it is not a string of at most 256 characters with content.
   */
  async options(username?: unknown): Promise<IssuedWebAuthnOptions<PublicKeyCredentialRequestOptionsJSON>> {
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
    }
    return this.issue([]);
  }

  /**
   * Assertion options for a user who already proved who they are (the passkey as an MFA factor, after
   * the password): `allowCredentials` lists that user's passkeys, which tells the caller nothing new.
   */
  async optionsForUser(
    userId: string,
  ): Promise<IssuedWebAuthnOptions<PublicKeyCredentialRequestOptionsJSON>> {
    const credentials = await this.ceremony.o.credentials.listByUser(userId);
    return this.issue(credentials.map(descriptor));
  }

  private async issue(
    allowCredentials: CredentialDescriptor[],
  ): Promise<IssuedWebAuthnOptions<PublicKeyCredentialRequestOptionsJSON>> {
    const { o, settings } = this.ceremony;
    const options = await generateAuthenticationOptions({
      rpID: settings.rpId,
      allowCredentials,
      challenge: bytes(o.ids.secret(32)),
      timeout: settings.challengeTtlMs,
      userVerification: "required",
    });
    return this.ceremony.issue(options, "authentication", undefined);
  }

  /**
   * Verifies a sign-in assertion and returns the authentication (`method: "passkey"`, factor `hwk`).
   * Throws VALIDATION_FAILED, WEBAUTHN_CHALLENGE_INVALID, WEBAUTHN_VERIFICATION_FAILED (unknown
   * credential, user handle mismatch, origin, RP id, signature, user verification),
   * WEBAUTHN_COUNTER_REGRESSION (published as `passkey.counter-regression`), ACCOUNT_LOCKED,
   * ACCOUNT_DISABLED.
   */
  async verify(
    challengeId: string | undefined,
    response: unknown,
    context: PasskeyRequestContext = {},
  ): Promise<Authentication> {
    const { o } = this.ceremony;
    const event: Partial<AuditEvent> = auditOrigin(context);
    const data: Record<string, unknown> = { method: "passkey" };
    try {
      const parsed = parseAuthenticationResponseJson(response);
      data.credentialId = parsed.id;
      const challenge = await this.ceremony.take(challengeId, "authentication");
      const credential = await o.credentials.findById(parsed.id);
      if (!credential) throw verificationFailed(undefined, "Unknown passkey");
      data.userId = credential.userId;
      const handle = parsed.response.userHandle;
      if (handle !== undefined && !sameBytes(handle, credential.userHandle)) {
        throw verificationFailed(undefined, "User handle does not match the passkey");
      }
      const newCounter = await this.verifyAssertion(parsed, challenge, credential);
      await this.storeCounter(credential, newCounter, context);
      const account = await o.users.findById(credential.userId);
      if (!account) throw verificationFailed(undefined, "The passkey's account no longer exists");
      event.principal = account.username;
      if (account.locked) throw new PlatformError("ACCOUNT_LOCKED", "Account is locked");
      if (!account.enabled) throw new PlatformError("ACCOUNT_DISABLED", "Account is disabled");
      const at = o.clock.now();
      this.ceremony.record(
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
        ...stampOf(account),
      });
    } catch (error) {
      this.ceremony.record(
        { ...event, type: "auth.login.failure", outcome: "failure" },
        { ...data, ...failureData(error) },
      );
      throw error;
    }
  }

  /** Verifies signature, origin, RP id, challenge and UV; returns the assertion's counter. */
  private async verifyAssertion(
    response: AuthenticationResponseJSON,
    challenge: WebAuthnChallenge,
    credential: PasskeyCredential,
  ): Promise<number> {
    const expectedOrigin = this.ceremony.origins();
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.challenge,
        expectedOrigin,
        expectedRPID: this.ceremony.settings.rpId,
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
    const { o } = this.ceremony;
    let current = credential;
    for (let attempt = 1; ; attempt++) {
      if ((newCounter > 0 || current.counter > 0) && newCounter <= current.counter) {
        await this.reportRegression(current, newCounter, context);
      }
      try {
        await o.credentials.updateCounter(current.id, current.version, newCounter, o.clock.now());
        return;
      } catch (error) {
        if (!isPlatformError(error) || error.code !== "CONFLICT" || attempt >= MAX_CAS_ATTEMPTS) throw error;
        const fresh = await o.credentials.findById(current.id);
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
      at: this.ceremony.o.clock.now(),
    };
    this.ceremony.record(
      { ...auditOrigin(context), type: "auth.passkey.counter-regression", outcome: "denied" },
      payload,
    );
    await this.ceremony.o.events.publish(PASSKEY_COUNTER_REGRESSION_EVENT, payload);
    throw passkeyError(
      "WEBAUTHN_COUNTER_REGRESSION",
      "The passkey's signature counter did not increase; the authenticator may have been cloned",
    );
  }
}

function sameBytes(a: string, b: string): boolean {
  return Buffer.from(a, "base64url").equals(Buffer.from(b, "base64url"));
}
