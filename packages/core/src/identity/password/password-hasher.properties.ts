import { PlatformError } from "../../kernel/platform-error.js";
import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";
import type { ScryptPasswordHasherOptions } from "./scrypt-password-hasher.js";

/** The lowest cost-log2 a platform accepts unless PASSWORD_SCRYPT_ALLOW_LOW_COST is on. */
export const MIN_PRODUCTION_SCRYPT_COST_LOG2 = 14;

/** scrypt cost as log2 N for new hashes; existing hashes keep theirs and are re-hashed on next login. */
export const PASSWORD_SCRYPT_COST_LOG2 = defineProperty({
  key: "platform.auth.password.scrypt.cost-log2",
  schema: prop.int(10, 20),
  default: 15,
  description:
    "scrypt CPU/memory cost of new password hashes, as log2 N (15 = 32 MiB with block size 8); below 14 only with allow-low-cost.",
});

/**
 * Lets cost-log2 go below 14 (down to 10, about 1/25 of the default's work per hash): for test
 * suites that sign in hundreds of times, never for stored passwords. Off by default.
 */
export const PASSWORD_SCRYPT_ALLOW_LOW_COST = defineProperty({
  key: "platform.auth.password.scrypt.allow-low-cost",
  schema: prop.bool(),
  default: false,
  description: "Accept scrypt cost-log2 10..13 (test suites only: far too cheap for stored passwords).",
});

/** scrypt block size r for new hashes. */
export const PASSWORD_SCRYPT_BLOCK_SIZE = defineProperty({
  key: "platform.auth.password.scrypt.block-size",
  schema: prop.int(1, 32),
  default: 8,
  description: "scrypt block size r of new password hashes; memory is about 128·N·r bytes.",
});

/** scrypt parallelization p for new hashes. */
export const PASSWORD_SCRYPT_PARALLELIZATION = defineProperty({
  key: "platform.auth.password.scrypt.parallelization",
  schema: prop.int(1, 16),
  default: 1,
  description: "scrypt parallelization p of new password hashes; CPU work grows with N·r·p.",
});

/** Every property of the password hasher, for a plugin's `properties` list. */
export const PASSWORD_HASHER_PROPERTIES = [
  PASSWORD_SCRYPT_COST_LOG2,
  PASSWORD_SCRYPT_BLOCK_SIZE,
  PASSWORD_SCRYPT_PARALLELIZATION,
  PASSWORD_SCRYPT_ALLOW_LOW_COST,
] as const;

/**
 * The ScryptPasswordHasher options these properties select. Each property is range-checked on its
 * own; a cost-log2 below 14 without allow-low-cost throws CONFIGURATION_INVALID here; the combination
 * is checked by the hasher's constructor (memory at most 1 GiB, N·r·p at most 2^24), which throws
 * CONFIGURATION_INVALID at start-up.
 */
export function scryptOptionsFromProperties(properties: PlatformProperties): ScryptPasswordHasherOptions {
  const costLog2 = properties.get(PASSWORD_SCRYPT_COST_LOG2);
  if (costLog2 < MIN_PRODUCTION_SCRYPT_COST_LOG2 && !properties.get(PASSWORD_SCRYPT_ALLOW_LOW_COST)) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${PASSWORD_SCRYPT_COST_LOG2.key}=${costLog2} is below ${MIN_PRODUCTION_SCRYPT_COST_LOG2}: ` +
        `set ${PASSWORD_SCRYPT_ALLOW_LOW_COST.key}=true to accept it (test suites only)`,
    );
  }
  return {
    costLog2,
    blockSize: properties.get(PASSWORD_SCRYPT_BLOCK_SIZE),
    parallelization: properties.get(PASSWORD_SCRYPT_PARALLELIZATION),
  };
}
