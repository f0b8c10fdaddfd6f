import type { InjectionToken } from "tsyringe";

/**
 * One key as a KeyStore keeps it. The store never sees key material in clear: `material` is sealed
 * by the KeyRing (AES-256-GCM under the key-encryption key) before it is stored.
 */
export interface StoredKey {
  /** What the key is for, e.g. `jwt.signing` or `mfa.device-cookie`; keys of one purpose form a ring. */
  readonly purpose: string;
  /** The key id, unique within its purpose (a JWK thumbprint, or a random id for secrets). */
  readonly kid: string;
  /** How the material is used, e.g. `ES256`, `EdDSA`, `HS256`, `HMAC-SHA256`. */
  readonly algorithm: string;
  /** The sealed key material (opaque to the store). */
  readonly material: string;
  /** The public key as a JWK, for asymmetric keys (not secret). */
  readonly publicJwk?: Readonly<Record<string, unknown>> | undefined;
  /** When the key was made (epoch ms). */
  readonly createdAt: number;
  /** When a rotation retired the key (epoch ms); absent on the purpose's one active key. */
  readonly retiredAt?: number | undefined;
  /** A retired key is kept, for verification only, until this time (epoch ms). */
  readonly verifyUntil?: number | undefined;
}

/**
 * Durable key material shared by every instance of a platform: the JWT signing keys (with their
 * rotation) and the device-cookie secret. Each purpose has at most one active key; the races between
 * instances (two generating the first key, two rotating at once) are decided by one atomic step of
 * the store. A retired key is listed until its `verifyUntil` has passed.
 */
export interface KeyStore {
  /** True when keys outlive the process (a database): the KeyRing then insists on a configured key-encryption key. */
  readonly durable: boolean;
  /**
   * The keys of `purpose` at time `now`: the active key first (if any), then the retired keys whose
   * `verifyUntil` is after `now`, newest first.
   */
  keys(purpose: string, now: number): Promise<StoredKey[]>;
  /**
   * Makes `candidate` the active key of its purpose if the purpose has none, in one atomic step, and
   * returns the active key: `candidate`, or the one another instance stored first.
   */
  activeOrCreate(candidate: StoredKey): Promise<StoredKey>;
  /**
   * Retires the active key `currentKid` of `purpose` (kept until `verifyUntil`) and makes `next` the
   * active key. Returns false, changing nothing, when `currentKid` is not the active key any more
   * (another instance rotated first).
   */
  rotate(
    purpose: string,
    currentKid: string,
    next: StoredKey,
    retire: { at: number; verifyUntil: number },
  ): Promise<boolean>;
}

/** DI token of the key store. */
export const KeyStore: InjectionToken<KeyStore> = Symbol.for("platform.KeyStore");
