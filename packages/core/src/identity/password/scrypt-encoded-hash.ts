/** The scrypt cost parameters a hash was made with. */
export interface ScryptParameters {
  /** log2 of the CPU/memory cost N (N = 2^costLog2). */
  costLog2: number;
  /** Block size r. */
  blockSize: number;
  /** Parallelization p. */
  parallelization: number;
}

/** A parsed `$scrypt$...` string: its parameters, salt and derived key. */
export interface ScryptEncodedHash extends ScryptParameters {
  salt: Buffer;
  hash: Buffer;
}

/**
 * Bounds on parameters, read from a stored hash or configured. A stored hash is data, maybe hostile
 * (an imported user table, a tampered row): outside these bounds `verify` answers false instead of
 * spending unbounded memory or CPU. The hasher refuses to be configured outside them too, so every
 * hash it makes, it can verify.
 */
export const SCRYPT_LIMITS = {
  maxCostLog2: 20,
  maxBlockSize: 32,
  maxParallelization: 16,
  /** Memory scrypt needs is about 128·N·r bytes; 1 GiB allows N=2^20 with r=8. */
  maxMemoryBytes: 2 ** 30,
  /** CPU work grows with N·r·p; 2^24 is 16 times OWASP's N=2^17, r=8, p=1 (our default is 2^18). */
  maxWork: 2 ** 24,
  /** Bounds of the derived key, in bytes. */
  minKeyLength: 16,
  maxKeyLength: 64,
  /** Bounds of a stored salt, in bytes (configured salts must be at least 16). */
  minSaltLength: 1,
  maxSaltLength: 64,
  /** Longest encoded string looked at; longer input is malformed without being parsed. */
  maxEncodedLength: 256,
} as const;

/**
 * The `maxmem` passed to node:crypto scrypt. OpenSSL needs 128·r·(N + p + 2) bytes (checked: one byte
 * less is refused); we pass twice that, so a different OpenSSL accounting still fits. Node's default
 * of 32 MiB would refuse N=2^17, r=8.
 */
export function scryptMaxmem(params: ScryptParameters): number {
  const n = 2 ** params.costLog2;
  return 2 * 128 * params.blockSize * (n + params.parallelization + 2);
}

/** Null when the parameters are within SCRYPT_LIMITS, otherwise the rule they break. */
export function scryptParametersProblem(params: ScryptParameters): string | null {
  const { costLog2, blockSize: r, parallelization: p } = params;
  if (!Number.isInteger(costLog2) || costLog2 < 1 || costLog2 > SCRYPT_LIMITS.maxCostLog2) {
    return `cost-log2 must be an integer in 1..${SCRYPT_LIMITS.maxCostLog2}`;
  }
  if (!Number.isInteger(r) || r < 1 || r > SCRYPT_LIMITS.maxBlockSize) {
    return `block size must be an integer in 1..${SCRYPT_LIMITS.maxBlockSize}`;
  }
  if (!Number.isInteger(p) || p < 1 || p > SCRYPT_LIMITS.maxParallelization) {
    return `parallelization must be an integer in 1..${SCRYPT_LIMITS.maxParallelization}`;
  }
  const n = 2 ** costLog2;
  if (128 * n * r > SCRYPT_LIMITS.maxMemoryBytes) return "128·N·r must not exceed 1 GiB";
  if (n * r * p > SCRYPT_LIMITS.maxWork) return "N·r·p must not exceed 2^24";
  return null;
}

/**
 * Formats `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>`, salt and hash in unpadded base64url.
 * The parameters travel with every hash, so old hashes still verify after the defaults change.
 */
export function formatScryptHash(encoded: ScryptEncodedHash): string {
  const params = `ln=${encoded.costLog2},r=${encoded.blockSize},p=${encoded.parallelization}`;
  return `$scrypt$${params}$${encoded.salt.toString("base64url")}$${encoded.hash.toString("base64url")}`;
}

const INT = "(0|[1-9][0-9]{0,2})";
const B64URL = "([A-Za-z0-9_-]+)";
const FORMAT = new RegExp(`^\\$scrypt\\$ln=${INT},r=${INT},p=${INT}\\$${B64URL}\\$${B64URL}$`);

/**
 * Parses an encoded hash strictly: canonical decimal parameters, canonical unpadded base64url,
 * parameters, salt and key length within SCRYPT_LIMITS. Undefined when any of that fails; never throws.
 */
export function parseScryptHash(encoded: unknown): ScryptEncodedHash | undefined {
  if (typeof encoded !== "string" || encoded.length > SCRYPT_LIMITS.maxEncodedLength) return undefined;
  const m = FORMAT.exec(encoded);
  if (!m) return undefined;
  const [, ln, r, p, saltText, hashText] = m;
  const params: ScryptParameters = { costLog2: Number(ln), blockSize: Number(r), parallelization: Number(p) };
  if (scryptParametersProblem(params) !== null) return undefined;
  const salt = canonicalBase64url(saltText!);
  const hash = canonicalBase64url(hashText!);
  if (!salt || salt.length < SCRYPT_LIMITS.minSaltLength || salt.length > SCRYPT_LIMITS.maxSaltLength) {
    return undefined;
  }
  if (!hash || hash.length < SCRYPT_LIMITS.minKeyLength || hash.length > SCRYPT_LIMITS.maxKeyLength) {
    return undefined;
  }
  return { ...params, salt, hash };
}

/** Decodes base64url only if re-encoding gives the same text (Node's decoder silently skips junk bits). */
function canonicalBase64url(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : undefined;
}
