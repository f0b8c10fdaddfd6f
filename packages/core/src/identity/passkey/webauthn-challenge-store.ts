import type { InjectionToken } from "tsyringe";

/** Which ceremony a challenge was issued for. */
export type WebAuthnChallengePurpose = "registration" | "authentication";

/** A challenge the server issued with registration or assertion options, waiting for its response. */
export interface WebAuthnChallenge {
  /** Lookup id, `ids.secret(32)`; travels in the browser's `PLATFORM_WEBAUTHN` cookie. */
  id: string;
  /** The challenge the authenticator signs, base64url (what the options carried). */
  challenge: string;
  purpose: WebAuthnChallengePurpose;
  /** For registration: the signed-in user it was issued to (verification requires the same user). */
  userId?: string | undefined;
  /** Epoch milliseconds; the challenge is dead from this instant on. */
  expiresAt: number;
}

/**
 * Where issued WebAuthn challenges wait for their response. `take` is atomic single use: of two
 * concurrent takes of one id at most one gets the record, and a taken record is gone for good.
 */
export interface WebAuthnChallengeStore {
  /** Stores a new challenge. Throws PlatformError `CONFLICT` when the id exists. */
  save(challenge: WebAuthnChallenge): Promise<void>;
  /**
   * Removes the challenge with this id and returns it when it is live and was issued for `purpose`;
   * undefined otherwise (unknown, already taken, expired or issued for the other ceremony; the record
   * is removed in every case).
   */
  take(id: string, purpose: WebAuthnChallengePurpose): Promise<WebAuthnChallenge | undefined>;
}

/** DI token of the WebAuthnChallengeStore port. */
export const WebAuthnChallengeStore: InjectionToken<WebAuthnChallengeStore> = Symbol.for(
  "platform.WebAuthnChallengeStore",
);
