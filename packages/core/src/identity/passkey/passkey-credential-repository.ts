import type { InjectionToken } from "tsyringe";
import type { NewPasskeyCredential, PasskeyCredential } from "./passkey-credential.js";

/**
 * The user credential repository: where passkeys and the users' WebAuthn handles live. Every method
 * returns copies: mutating a returned record changes nothing stored.
 */
export interface PasskeyCredentialRepository {
  /**
   * Stores a new credential with `createdAt` from the Clock, version 1 and no `lastUsedAt`. Throws
   * PlatformError `CONFLICT` when a credential with that id exists (for any user).
   */
  create(credential: NewPasskeyCredential): Promise<PasskeyCredential>;
  /** The credential with this id, if any. */
  findById(id: string): Promise<PasskeyCredential | undefined>;
  /** The user's credentials, oldest first. */
  listByUser(userId: string): Promise<PasskeyCredential[]>;
  /** The user's WebAuthn handle, if one was assigned. */
  findUserHandle(userId: string): Promise<string | undefined>;
  /**
   * Assigns `handle` to the user unless they already have one, and returns the user's handle (the
   * existing one when a concurrent call won). Throws `CONFLICT` when `handle` belongs to another user.
   */
  saveUserHandle(userId: string, handle: string): Promise<string>;
  /** The user a WebAuthn handle belongs to, if any. */
  userIdForHandle(handle: string): Promise<string | undefined>;
  /**
   * Compare-and-set after a sign-in: sets the counter and `lastUsedAt` and bumps the version, only if
   * the stored version is `expectedVersion`. Throws `CONFLICT` on a stale version, `NOT_FOUND` when
   * the credential is gone.
   */
  updateCounter(
    id: string,
    expectedVersion: number,
    counter: number,
    lastUsedAt: number,
  ): Promise<PasskeyCredential>;
  /** Deletes the credential only if `userId` owns it; false when it is unknown or someone else's. */
  delete(id: string, userId: string): Promise<boolean>;
}

/** DI token of the PasskeyCredentialRepository port ("the user credential repository"). */
export const PasskeyCredentialRepository: InjectionToken<PasskeyCredentialRepository> = Symbol.for(
  "platform.PasskeyCredentialRepository",
);
