import { randomBytes } from "node:crypto";
import type { DependencyContainer } from "tsyringe";
import { Clock } from "../../kernel/clock.js";
import { KeyRing, type NewKey, type OpenedKey } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { PlatformProperties, type PropertyDefinition } from "../../kernel/properties.js";
import { generateJwtKeyMaterial, JWT_ALGORITHMS, type JwtAlgorithm } from "./jwt-keys.js";
import { JWT_ACCESS_TOKEN_TTL, JWT_CLOCK_SKEW } from "./jwt-properties.js";
import { JWT_KEY_RELOAD_MS } from "./stored-jwt-keys.js";

/** One key of the ring as an operator sees it: never its material. */
interface KeyRingEntry {
  purpose: string;
  kid: string;
  algorithm: string;
  state: "active" | "retired";
  createdAt: number;
  ageMs: number;
  retiredAt?: number;
  /** A retired key verifies until then (epoch ms), and then leaves the ring. */
  verifyUntil?: number;
}

/** What a forced rotation did. */
interface ForcedRotation {
  purpose: string;
  retiredKid: string;
  kid: string;
  algorithm: string;
  /** The retired key still verifies until then: the last access token it signed has expired. */
  verifyUntil: number;
}

/** Bytes of a new HMAC or AES key (device cookies, MFA codes, evidence payload wrapping: 256 bits). */
const HMAC_KEY_BYTES = 32;

/**
 * Operator access to the key ring, for `platform keys list | rotate`: lists each purpose's keys with
 * their age and state (never their material) and forces a rotation. Every read opens the sealed
 * material, so a wrong key-encryption key fails (CONFIGURATION_INVALID) before anything changes. A
 * JWT signing key is replaced by one of the same algorithm, and the old key keeps verifying until the
 * last access token it signed has expired (the instances pick the new key up within a minute); an
 * HMAC key (device cookies, MFA codes) is replaced at once, and the instances read the new one when
 * they next start.
 */
export class KeyRingAdmin {
  /** The properties it reads (declare them on the platform it runs in). */
  static readonly properties: readonly PropertyDefinition[] = [JWT_ACCESS_TOKEN_TTL, JWT_CLOCK_SKEW];

  private constructor(
    private readonly ring: KeyRing,
    private readonly now: () => number,
    private readonly jwtVerifyWindowMs: number,
  ) {}

  /** The admin of a platform's ring (its KeyStore, key-encryption key, clock and JWT lifetimes). */
  static of(container: DependencyContainer): KeyRingAdmin {
    const properties = container.resolve(PlatformProperties);
    const clock = container.resolve(Clock);
    const read = (p: PropertyDefinition<number>) =>
      properties.declares(p.key) ? properties.get(p) : p.default;
    const windowMs = read(JWT_ACCESS_TOKEN_TTL) + read(JWT_CLOCK_SKEW) + JWT_KEY_RELOAD_MS;
    return new KeyRingAdmin(container.resolve(KeyRing), () => clock.now(), windowMs);
  }

  /** Every key of `purposes`, active first, opened to prove the key-encryption key (material dropped). */
  async list(purposes: readonly string[]): Promise<KeyRingEntry[]> {
    const now = this.now();
    const out: KeyRingEntry[] = [];
    for (const purpose of purposes) {
      for (const key of await this.ring.keys(purpose)) out.push(entryOf(purpose, key, now));
    }
    return out;
  }

  /**
   * Retires the active key of `purpose` and makes a new one of its algorithm active. The retired key
   * stays in the ring until `retiredKeptUntil` when given (a key that opens stored data, such as the
   * sealed evidence's `evidence.payload`, must outlive that data), else as the purpose's kind says
   * (a JWT key for the token window, an HMAC key not at all).
   */
  async rotate(purpose: string, options: { retiredKeptUntil?: number } = {}): Promise<ForcedRotation> {
    const [active] = await this.ring.keys(purpose);
    if (!active || active.retiredAt !== undefined) {
      throw new PlatformError(
        "NOT_FOUND",
        `No active ${purpose} key to rotate (a platform makes it at its first start)`,
      );
    }
    const jwt = (JWT_ALGORITHMS as readonly string[]).includes(active.algorithm);
    const at = this.now();
    const verifyUntil = options.retiredKeptUntil ?? (jwt ? at + this.jwtVerifyWindowMs : at);
    let made: NewKey | undefined;
    const make = async () => {
      made = jwt ? await jwtKey(active.algorithm as JwtAlgorithm) : secretKey(active.algorithm);
      return made;
    };
    if (!(await this.ring.rotate(purpose, active.kid, make, verifyUntil)) || !made) {
      throw new PlatformError(
        "CONFLICT",
        `The ${purpose} key was rotated meanwhile by another instance; list again`,
      );
    }
    return { purpose, retiredKid: active.kid, kid: made.kid, algorithm: made.algorithm, verifyUntil };
  }
}

async function jwtKey(algorithm: JwtAlgorithm): Promise<NewKey> {
  const material = await generateJwtKeyMaterial(algorithm);
  return { ...material, publicJwk: material.publicJwk as Record<string, unknown> | undefined };
}

/** A new symmetric key: HMAC-SHA256 (device cookies, MFA codes) or A256GCM (sealed evidence payload keys). */
function secretKey(algorithm: string): NewKey {
  if (algorithm !== "HMAC-SHA256" && algorithm !== "A256GCM") {
    throw new PlatformError("CONFIGURATION_INVALID", `Cannot make a new key of algorithm ${algorithm}`);
  }
  return {
    kid: randomBytes(12).toString("base64url"),
    algorithm,
    secret: new Uint8Array(randomBytes(HMAC_KEY_BYTES)),
  };
}

function entryOf(purpose: string, key: OpenedKey, now: number): KeyRingEntry {
  return {
    purpose,
    kid: key.kid,
    algorithm: key.algorithm,
    state: key.retiredAt === undefined ? "active" : "retired",
    createdAt: key.createdAt,
    ageMs: Math.max(0, now - key.createdAt),
    ...(key.retiredAt === undefined ? {} : { retiredAt: key.retiredAt }),
    ...(key.verifyUntil === undefined ? {} : { verifyUntil: key.verifyUntil }),
  };
}
