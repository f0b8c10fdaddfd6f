import { randomBytes as cryptoRandomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { PlatformError } from "../../kernel/platform-error.js";
import type { PasswordHasher } from "./password-hasher.js";
import {
  formatScryptHash,
  parseScryptHash,
  type ScryptEncodedHash,
  type ScryptParameters,
  scryptMaxmem,
  scryptParametersProblem,
} from "./scrypt-encoded-hash.js";

/** Options of the ScryptPasswordHasher; every field has a documented default. */
export interface ScryptPasswordHasherOptions {
  /** log2 of N, the CPU/memory cost. Default 15 (N = 32768, 32 MiB with r = 8). */
  costLog2?: number;
  /** Block size r. Default 8. */
  blockSize?: number;
  /** Parallelization p. Default 1. */
  parallelization?: number;
  /** Derived key length in bytes, 16..64. Default 32. */
  keyLength?: number;
  /** Salt length in bytes, 16..64. Default 16. */
  saltLength?: number;
  /** Source of salts. Default node:crypto `randomBytes`; tests may pin it. */
  randomBytes?: (size: number) => Buffer;
}

/** The defaults of ScryptPasswordHasherOptions. */
export const SCRYPT_DEFAULTS = {
  costLog2: 15,
  blockSize: 8,
  parallelization: 1,
  keyLength: 32,
  saltLength: 16,
} as const;

/** Longest password accepted, in UTF-16 code units, checked before normalisation (a DoS guard). */
export const MAX_PASSWORD_LENGTH = 1024;

/** A lone surrogate: UTF-8 encoding would turn every one into U+FFFD, so distinct passwords would collide. */
const LONE_SURROGATE = /\p{Cs}/u;

function deriveKey(
  password: Buffer,
  salt: Buffer,
  keyLength: number,
  params: ScryptParameters,
): Promise<Buffer> {
  const options = {
    N: 2 ** params.costLog2,
    r: params.blockSize,
    p: params.parallelization,
    maxmem: scryptMaxmem(params),
  };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * PasswordHasher over node:crypto's asynchronous scrypt (it runs on libuv's thread pool, never on the
 * event loop). Encoded format: `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, salt and hash in unpadded
 * base64url; see `formatScryptHash`. Passwords are NFKC-normalised, then UTF-8 encoded, so the same
 * password typed on different keyboards or platforms matches.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  private readonly params: ScryptParameters;
  private readonly keyLength: number;
  private readonly saltLength: number;
  private readonly randomBytes: (size: number) => Buffer;
  /** A well-formed hash with the current parameters that no password matches; `dummyVerify` checks against it. */
  private readonly dummy: ScryptEncodedHash;

  constructor(options: ScryptPasswordHasherOptions = {}) {
    this.params = {
      costLog2: options.costLog2 ?? SCRYPT_DEFAULTS.costLog2,
      blockSize: options.blockSize ?? SCRYPT_DEFAULTS.blockSize,
      parallelization: options.parallelization ?? SCRYPT_DEFAULTS.parallelization,
    };
    this.keyLength = options.keyLength ?? SCRYPT_DEFAULTS.keyLength;
    this.saltLength = options.saltLength ?? SCRYPT_DEFAULTS.saltLength;
    this.randomBytes = options.randomBytes ?? cryptoRandomBytes;
    const problem =
      scryptParametersProblem(this.params) ??
      lengthProblem("key length", this.keyLength) ??
      lengthProblem("salt length", this.saltLength);
    if (problem) throw new PlatformError("CONFIGURATION_INVALID", `Invalid scrypt parameters: ${problem}`);
    // Random bytes in place of a derived key: comparing against them costs one full scrypt, like a
    // real verify, matches no password in practice (2^-256), and costs no hash at construction.
    this.dummy = { ...this.params, salt: this.salt(), hash: this.randomBytes(this.keyLength) };
  }

  /** The parameters new hashes are made with. */
  get parameters(): Readonly<ScryptParameters> {
    return { ...this.params };
  }

  async hash(password: string): Promise<string> {
    if (typeof password !== "string") {
      throw new PlatformError("VALIDATION_FAILED", "Password must be a string");
    }
    if (password.length > MAX_PASSWORD_LENGTH) {
      throw new PlatformError(
        "VALIDATION_FAILED",
        `Password must not exceed ${MAX_PASSWORD_LENGTH} characters`,
        {
          details: { maxLength: MAX_PASSWORD_LENGTH },
        },
      );
    }
    if (LONE_SURROGATE.test(password)) {
      throw new PlatformError("VALIDATION_FAILED", "Password must be well-formed Unicode");
    }
    const salt = this.salt();
    const hash = await deriveKey(encodePassword(password), salt, this.keyLength, this.params);
    return formatScryptHash({ ...this.params, salt, hash });
  }

  async verify(password: string, encoded: string): Promise<boolean> {
    return this.check(password, parseScryptHash(encoded));
  }

  needsRehash(encoded: string): boolean {
    const parsed = parseScryptHash(encoded);
    return (
      !parsed ||
      parsed.costLog2 !== this.params.costLog2 ||
      parsed.blockSize !== this.params.blockSize ||
      parsed.parallelization !== this.params.parallelization ||
      parsed.hash.length !== this.keyLength ||
      parsed.salt.length !== this.saltLength
    );
  }

  async dummyVerify(password: string): Promise<void> {
    await this.check(password, this.dummy);
  }

  /** The one code path of `verify` and `dummyVerify`, so both cost the same. Never throws. */
  private async check(password: string, stored: ScryptEncodedHash | undefined): Promise<boolean> {
    try {
      if (!stored || typeof password !== "string" || password.length > MAX_PASSWORD_LENGTH) return false;
      if (LONE_SURROGATE.test(password)) return false;
      const derived = await deriveKey(encodePassword(password), stored.salt, stored.hash.length, stored);
      return derived.length === stored.hash.length && timingSafeEqual(derived, stored.hash);
    } catch {
      return false;
    }
  }

  private salt(): Buffer {
    const salt = this.randomBytes(this.saltLength);
    if (salt.length !== this.saltLength) {
      throw new PlatformError("INTERNAL_ERROR", "Salt source returned the wrong number of bytes");
    }
    return salt;
  }
}

function encodePassword(password: string): Buffer {
  return Buffer.from(password.normalize("NFKC"), "utf8");
}

function lengthProblem(name: string, value: number): string | null {
  return Number.isInteger(value) && value >= 16 && value <= 64
    ? null
    : `${name} must be an integer in 16..64`;
}
