import {
  parseScryptHash,
  type ScryptParameters,
  scryptMaxmem,
} from "../../../packages/core/src/identity/password/scrypt-encoded-hash.js";
import { ScryptPasswordHasher } from "../../../packages/core/src/identity/password/scrypt-password-hasher.js";
import { closedLoop, type RawRun } from "./closed-loop.js";

/** The scrypt parameters of a stored hash, as the report prints them. */
export interface ScryptDescription extends ScryptParameters {
  n: number;
  keyLength: number;
  saltLength: number;
  /** About 128·N·r bytes of memory per hash. */
  memoryBytes: number;
  /** The maxmem the hasher passes to node:crypto. */
  maxmem: number;
}

/** Reads the parameters out of an encoded `$scrypt$ln=..,r=..,p=..$salt$hash` string. */
export function describeScryptHash(encoded: string): ScryptDescription {
  const parsed = parseScryptHash(encoded);
  if (!parsed) throw new Error(`not a $scrypt$ hash: ${encoded.slice(0, 40)}`);
  const n = 2 ** parsed.costLog2;
  return {
    costLog2: parsed.costLog2,
    blockSize: parsed.blockSize,
    parallelization: parsed.parallelization,
    n,
    keyLength: parsed.hash.length,
    saltLength: parsed.salt.length,
    memoryBytes: 128 * n * parsed.blockSize,
    maxmem: scryptMaxmem(parsed),
  };
}

/**
 * The bare hash rate: `ScryptPasswordHasher.verify` of the stored hash, in-process, closed loop.
 * verify takes the parameters from the encoded hash, so this is exactly the work a login pays for.
 * A verification that answers false counts as an error.
 */
export async function runScryptBaseline(
  storedHash: string,
  password: string,
  concurrency: number,
  count: number,
): Promise<RawRun> {
  const hasher = new ScryptPasswordHasher();
  const verify = async (): Promise<void> => {
    if (!(await hasher.verify(password, storedHash))) throw new Error("verify answered false");
  };
  await closedLoop({ concurrency, count: concurrency }, verify); // warm-up
  return closedLoop({ concurrency, count }, verify);
}
