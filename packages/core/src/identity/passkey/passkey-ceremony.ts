import type { AuditEvent } from "../../kernel/audit-sink.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { Authentication } from "../authentication/authentication.js";
import type { PasskeyCredential } from "./passkey-credential.js";
import { passkeyError } from "./passkey-errors.js";
import type { PasskeyServiceOptions } from "./passkey-service-options.js";
import type { WebAuthnChallenge } from "./webauthn-challenge-store.js";

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

/** The relying party settings of a PasskeyService, defaults applied. */
export interface PasskeyCeremonySettings {
  rpName: string;
  rpId: string;
  challengeTtlMs: number;
}

const MAX_CHALLENGE_ID_LENGTH = 256;

/**
 * What registration and sign-in share: single-use challenges issued and taken from the store, the
 * allowed origins, and an audit trail that never fails a ceremony.
 */
export class PasskeyCeremony {
  constructor(
    /** The service's collaborators (read at each use). */
    readonly o: PasskeyServiceOptions,
    /** Relying party and challenge settings. */
    readonly settings: PasskeyCeremonySettings,
  ) {}

  /** Saves a challenge for `options` and returns them with its id and expiry. */
  async issue<T extends { challenge: string }>(
    options: T,
    purpose: WebAuthnChallenge["purpose"],
    userId: string | undefined,
  ): Promise<IssuedWebAuthnOptions<T>> {
    const challenge: WebAuthnChallenge = {
      id: this.o.ids.secret(32),
      challenge: options.challenge,
      purpose,
      userId,
      expiresAt: this.o.clock.now() + this.settings.challengeTtlMs,
    };
    await this.o.challenges.save(challenge);
    return { challengeId: challenge.id, expiresAt: challenge.expiresAt, options };
  }

  /** Takes (burns) a live challenge of this purpose; WEBAUTHN_CHALLENGE_INVALID if there is none. */
  async take(
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

  /** The allowed origins now; CONFIGURATION_INVALID when none is known. */
  origins(): string[] {
    const origins = this.o.allowedOrigins().filter((o): o is string => typeof o === "string" && o !== "");
    if (origins.length === 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "No allowed origin is known for passkeys");
    }
    return origins;
  }

  /** Audits an outcome with `data` merged into the event's data. */
  record(event: AuditEvent, data: Record<string, unknown>): void {
    try {
      this.o.audit.record({ ...event, data: { ...event.data, ...data } });
    } catch {
      // A broken sink must not turn a ceremony into a 500 or hide its real error.
    }
  }
}

/** A credential descriptor of WebAuthn options (an `allowCredentials`/`excludeCredentials` entry). */
export interface CredentialDescriptor {
  id: string;
  transports?: string[];
}

/** A stored passkey as an allow/exclude list entry. */
export function descriptor(c: PasskeyCredential): CredentialDescriptor {
  return c.transports.length > 0 ? { id: c.id, transports: [...c.transports] } : { id: c.id };
}

/** Decodes base64url into the bytes @simplewebauthn/server takes. */
export function bytes(base64url: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(base64url, "base64url"));
}

/** The error for a missing, expired, reused or foreign challenge. */
export function challengeInvalid(): PlatformError {
  return passkeyError(
    "WEBAUTHN_CHALLENGE_INVALID",
    "No valid passkey challenge for this browser; request new options",
  );
}

/** The error for a response that does not verify, keeping the library's error as `cause`. */
export function verificationFailed(cause?: unknown, message = "Passkey verification failed"): PlatformError {
  return passkeyError("WEBAUTHN_VERIFICATION_FAILED", message, cause === undefined ? {} : { cause });
}

/** The audit data of a failed ceremony: the error code and, bounded, its cause's message. */
export function failureData(error: unknown): Record<string, unknown> {
  const reason = isPlatformError(error) ? error.code : "INTERNAL_ERROR";
  const cause = isPlatformError(error) ? error.cause : error;
  return cause instanceof Error ? { reason, detail: cause.message.slice(0, 300) } : { reason };
}
