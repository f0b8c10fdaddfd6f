import type { CryptoKey, JWK } from "jose";
import type { KeyRing, OpenedKey } from "../../kernel/keys/key-ring.js";
import { generateJwtKeyMaterial, type JwtAlgorithm, type JwtKeys, jwtKeysFromMaterial } from "./jwt-keys.js";

/** The KeyStore purpose of the access-token signing keys. */
export const JWT_SIGNING_KEY_PURPOSE = "jwt.signing";

/** How often an instance reads the ring again, to sign with a key another instance rotated in. */
export const JWT_KEY_RELOAD_MS = 60_000;

/** Shortest time between two reads caused by tokens naming an unknown kid (a forged kid costs nothing more). */
export const JWT_UNKNOWN_KID_RELOAD_MS = 5_000;

/** What StoredJwtKeys needs. */
export interface StoredJwtKeysOptions {
  ring: KeyRing;
  algorithm: JwtAlgorithm;
  now: () => number;
  /** Rotate the active key once it is this old (ms); 0 never rotates. */
  rotationMs: number;
  /** How long after a rotation a token signed with the old key may still be presented (ms): access-token lifetime plus clock skew. */
  tokenLifetimeMs: number;
}

/**
 * The access-token keys kept in the KeyRing, shared by every instance on one KeyStore: the first
 * instance makes the key, the others read it; a rotation (every `rotationMs`, decided by one atomic
 * step of the store) makes a new key active and keeps the old one for verification until the last
 * token it signed has expired. Instances read the ring again every minute (so they sign with the new
 * key soon after another instance rotated), and at most every five seconds when a token names a kid
 * they do not know. Only keys of the pinned algorithm are used.
 */
export class StoredJwtKeys implements JwtKeys {
  private current!: JwtKeys;
  /** Every key this instance accepts, with the time a retired one stops verifying. */
  private verifiers = new Map<string, { key: CryptoKey; until: number; jwk: JWK | undefined }>();
  private loadedAt = Number.NEGATIVE_INFINITY;
  private activeCreatedAt = 0;
  private loading: Promise<void> | undefined;

  private constructor(private readonly o: StoredJwtKeysOptions) {}

  /** Opens (or makes) the active key of the ring. */
  static async open(options: StoredJwtKeysOptions): Promise<StoredJwtKeys> {
    const keys = new StoredJwtKeys(options);
    await keys.reload();
    return keys;
  }

  get algorithm(): JwtAlgorithm {
    return this.o.algorithm;
  }
  get kid(): string {
    return this.current.kid;
  }
  get signingKey(): CryptoKey {
    return this.current.signingKey;
  }
  get verificationKey(): CryptoKey {
    return this.current.verificationKey;
  }
  /** True when the ring's store dies with the process. */
  get generated(): boolean {
    return !this.o.ring.durable;
  }

  publicJwk(): JWK | undefined {
    return this.current.publicJwk();
  }

  /**
   * The public keys that may still verify: the active key and every retired key before its
   * `verifyUntil`. Reads the ring again when the last read is older than JWT_UNKNOWN_KID_RELOAD_MS, so
   * a key another instance rotated in is published within seconds, and a retired key leaves the set
   * as soon as its last token has expired.
   */
  async publicJwks(): Promise<JWK[]> {
    if (this.o.now() - this.loadedAt >= JWT_UNKNOWN_KID_RELOAD_MS) await this.reload();
    const now = this.o.now();
    return [...this.verifiers.values()].flatMap((v) => (v.jwk && now < v.until ? [v.jwk] : []));
  }

  async verificationKeyFor(kid: string): Promise<CryptoKey | undefined> {
    const known = this.usable(kid);
    if (known || this.o.now() - this.loadedAt < JWT_UNKNOWN_KID_RELOAD_MS) return known;
    await this.reload();
    return this.usable(kid);
  }

  /** The key of `kid` while it may still verify (a retired key only until its `verifyUntil`). */
  private usable(kid: string): CryptoKey | undefined {
    const known = this.verifiers.get(kid);
    return known && this.o.now() < known.until ? known.key : undefined;
  }

  async beforeSign(): Promise<void> {
    const now = this.o.now();
    if (this.o.rotationMs > 0 && now - this.activeCreatedAt >= this.o.rotationMs) {
      await this.o.ring.rotate(
        JWT_SIGNING_KEY_PURPOSE,
        this.current.kid,
        () => this.make(),
        now + this.o.tokenLifetimeMs + JWT_KEY_RELOAD_MS,
      );
      // Whoever won the rotation, the ring now has the active key to read.
      await this.reload();
    } else if (now - this.loadedAt >= JWT_KEY_RELOAD_MS) {
      await this.reload();
    }
  }

  /** Reads the ring again (one read at a time: concurrent callers share it). */
  private reload(): Promise<void> {
    this.loading ??= this.read().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async read(): Promise<void> {
    const ring = await this.o.ring.keys(JWT_SIGNING_KEY_PURPOSE);
    let active = ring[0]?.retiredAt === undefined ? ring[0] : undefined;
    if (active && active.algorithm !== this.o.algorithm) {
      // The pinned algorithm changed: its tokens cannot be verified any more, so retire it at once.
      await this.o.ring.rotate(JWT_SIGNING_KEY_PURPOSE, active.kid, () => this.make(), this.o.now());
      active = undefined;
    }
    active ??= await this.o.ring.active(JWT_SIGNING_KEY_PURPOSE, () => this.make());
    const verifiers = new Map<string, { key: CryptoKey; until: number; jwk: JWK | undefined }>();
    const current = await this.keysOf(active);
    verifiers.set(current.kid, {
      key: current.verificationKey,
      until: Number.POSITIVE_INFINITY,
      jwk: current.publicJwk(),
    });
    for (const key of ring) {
      if (key.kid === current.kid || key.algorithm !== this.o.algorithm) continue;
      const keys = await this.keysOf(key);
      verifiers.set(key.kid, {
        key: keys.verificationKey,
        until: key.verifyUntil ?? 0,
        jwk: keys.publicJwk(),
      });
    }
    this.current = current;
    this.activeCreatedAt = active.createdAt;
    this.verifiers = verifiers;
    this.loadedAt = this.o.now();
  }

  private keysOf(key: OpenedKey): Promise<JwtKeys> {
    return jwtKeysFromMaterial(
      {
        kid: key.kid,
        algorithm: key.algorithm as JwtAlgorithm,
        secret: key.secret,
        publicJwk: key.publicJwk as JWK | undefined,
      },
      this.generated,
    );
  }

  private async make() {
    const material = await generateJwtKeyMaterial(this.o.algorithm);
    return { ...material, publicJwk: material.publicJwk as Record<string, unknown> | undefined };
  }
}
