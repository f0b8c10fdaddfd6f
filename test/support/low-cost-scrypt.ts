/**
 * The scrypt cost the test stacks hash and verify passwords at: N = 2^10, about 1/25 of the
 * default's work (2^15), accepted only with `allow-low-cost`. Suites sign in hundreds of times;
 * test/cli/platform-cli.test.ts and the benchmarks keep the default cost.
 */
export const LOW_COST_SCRYPT = {
  "platform.auth.password.scrypt.cost-log2": 10,
  "platform.auth.password.scrypt.allow-low-cost": true,
} as const;

/**
 * The same cost for a `platform` child process (it reads properties from its environment): the
 * demo hashes its users at start, about 0.4 s of CPU at the default cost, on every start a test makes.
 */
export const LOW_COST_SCRYPT_ENV = {
  PLATFORM_AUTH_PASSWORD_SCRYPT_COST_LOG2: "10",
  PLATFORM_AUTH_PASSWORD_SCRYPT_ALLOW_LOW_COST: "true",
} as const;
