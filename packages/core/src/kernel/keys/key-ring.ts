import { PlatformError } from "../platform-error.js";
import type { KeyStore, StoredKey } from "./key-store.js";
import { KEY_ENCRYPTION_KEY } from "./key.properties.js";
import { KeySealer, MIN_KEY_ENCRYPTION_KEY_BYTES } from "./key-sealer.js";
import { secretBytesOf } from "./secret-text.js";

/** A key to store: its id, algorithm, secret material (in clear, sealed before it is stored) and public JWK. */
export interface NewKey {
  readonly kid: string;
  readonly algorithm: string;
  readonly secret: Uint8Array;
  readonly publicJwk?: Readonly<Record<string, unknown>> | undefined;
}

/** A stored key, opened. */
export interface OpenedKey extends NewKey {
  readonly createdAt: number;
  readonly retiredAt?: number | undefined;
  readonly verifyUntil?: number | undefined;
}

/**
 * The platform's keys over the KeyStore port: makes the first key of a purpose (one winner across
 * instances), lists a purpose's keys and rotates them, sealing the material before the store sees it
 * and opening it after. The identity module keeps its JWT signing keys here, the MFA module its
 * device-cookie secret.
 */
export class KeyRing {
  constructor(private readonly o: { store: KeyStore; sealer: KeySealer; now: () => number }) {}

  /** True when the keys outlive this process (the store is durable). */
  get durable(): boolean {
    return this.o.store.durable;
  }

  /** The active key of `purpose`; when there is none, `make()`'s key becomes it (unless another instance wins). */
  async active(purpose: string, make: () => Promise<NewKey> | NewKey): Promise<OpenedKey> {
    const [current] = await this.o.store.keys(purpose, this.o.now());
    if (current && current.retiredAt === undefined) return this.open(current);
    const stored = await this.o.store.activeOrCreate(this.sealed(purpose, await make()));
    return this.open(stored);
  }

  /** The active key (first) and the retired keys still kept for verification, newest first. */
  async keys(purpose: string): Promise<OpenedKey[]> {
    return (await this.o.store.keys(purpose, this.o.now())).map((k) => this.open(k));
  }

  /**
   * Replaces the active key `currentKid` by `make()`'s key, keeping the old one for verification until
   * `verifyUntil`. False when another instance rotated first (read `keys` again).
   */
  async rotate(
    purpose: string,
    currentKid: string,
    make: () => Promise<NewKey> | NewKey,
    verifyUntil: number,
  ): Promise<boolean> {
    const at = this.o.now();
    return this.o.store.rotate(purpose, currentKid, this.sealed(purpose, await make()), { at, verifyUntil });
  }

  private sealed(purpose: string, key: NewKey): StoredKey {
    return {
      purpose,
      kid: key.kid,
      algorithm: key.algorithm,
      material: this.o.sealer.seal(key.secret, labelOf(purpose, key.kid, key.algorithm)),
      publicJwk: key.publicJwk,
      createdAt: this.o.now(),
    };
  }

  private open(stored: StoredKey): OpenedKey {
    return {
      kid: stored.kid,
      algorithm: stored.algorithm,
      secret: this.o.sealer.open(stored.material, labelOf(stored.purpose, stored.kid, stored.algorithm)),
      publicJwk: stored.publicJwk,
      createdAt: stored.createdAt,
      retiredAt: stored.retiredAt,
      verifyUntil: stored.verifyUntil,
    };
  }
}

function labelOf(purpose: string, kid: string, algorithm: string): string {
  return `${purpose}/${kid}/${algorithm}`;
}

/**
 * The KeySealer for a store: the configured `platform.keys.encryption-key`, or, when it is empty, a
 * random one for a store that dies with the process. A durable store without a configured key is a
 * CONFIGURATION_INVALID error: key material is never kept in clear, nor under a key lost at restart.
 */
export function keySealerFor(store: KeyStore, configured: string): KeySealer {
  const text = configured.trim();
  if (text === "") {
    if (store.durable) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `The key store is durable: set ${KEY_ENCRYPTION_KEY.key} (at least ${MIN_KEY_ENCRYPTION_KEY_BYTES} bytes, the same on every instance) so JWT signing keys and the device-cookie secret are stored sealed`,
        { details: { key: KEY_ENCRYPTION_KEY.key } },
      );
    }
    return KeySealer.ephemeral();
  }
  return new KeySealer(secretBytesOf(text, KEY_ENCRYPTION_KEY.key, MIN_KEY_ENCRYPTION_KEY_BYTES));
}
