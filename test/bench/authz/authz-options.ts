import type { CasbinVariant } from "./casbin-workload.js";
import type { PdpChoice } from "./load-pdp.js";
import { DEFAULT_SEED } from "./workload.js";

/** Everything a run of `pnpm bench:authz` can be told. */
export interface AuthzBenchOptions {
  readonly quick: boolean;
  /** The N values, ascending. */
  readonly sizes: readonly number[];
  /** Distinct requests per stream (every one is compared with the reference, per algorithm). */
  readonly requestCount: number;
  readonly repetitions: number;
  /** Target time per side per repetition, FIRST_APPLICABLE (the other algorithms get half). */
  readonly secondsPerSide: number;
  /** How many rebuilds of the largest N are timed. */
  readonly rebuilds: number;
  readonly casbinVariant: CasbinVariant;
  readonly pdp: PdpChoice;
  /** Another module exporting createPlatformPdp (AUTHZ_BENCH_PDP_MODULE), instead of platform-pdp.ts. */
  readonly pdpModule: string | undefined;
  readonly seed: number;
  readonly timeoutMs: number;
}

/** Bad usage: exit 2 with the usage text. */
export class AuthzBenchUsageError extends Error {
  override readonly name = "AuthzBenchUsageError";
}

export const AUTHZ_USAGE = `Usage: pnpm bench:authz [-- --quick]

Environment (all optional):
  AUTHZ_BENCH_QUICK=1            smoke test: N = 100 and 1,000, 4,000 requests, 3 repetitions of 0.1 s
  AUTHZ_BENCH_SIZES=100,1000     the N values (default 100,1000,10000)
  AUTHZ_BENCH_REQUESTS=20000     distinct requests per stream (all compared with the reference)
  AUTHZ_BENCH_REPS=5             interleaved repetitions (at least 1; the issue asks for 5 or more)
  AUTHZ_BENCH_SECONDS=0.5        target seconds per side per repetition
  AUTHZ_BENCH_CASBIN_MODEL=rbac  rbac | rbac-with-deny | priority
  AUTHZ_BENCH_PDP=auto           auto (platform-pdp.ts if present) | platform | reference
  AUTHZ_BENCH_PDP_MODULE=path    load createPlatformPdp from this module instead of platform-pdp.ts
  AUTHZ_BENCH_SEED=24301         workload seed
  AUTHZ_BENCH_TIMEOUT_MS=900000  abort (exit 2) after this long
`;

/** Reads `--quick`/`--help` and the AUTHZ_BENCH_* variables. */
export function parseAuthzBenchOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): AuthzBenchOptions | "help" {
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") return "help";
    if (arg !== "--quick" && arg !== "--") throw new AuthzBenchUsageError(`Unknown argument '${arg}'`);
  }
  const quick = argv.includes("--quick") || flag(env.AUTHZ_BENCH_QUICK);
  const sizes = env.AUTHZ_BENCH_SIZES
    ? env.AUTHZ_BENCH_SIZES.split(",").map((s) =>
        positiveInt("AUTHZ_BENCH_SIZES", s.trim().replace(/_/g, "")),
      )
    : quick
      ? [100, 1_000]
      : [100, 1_000, 10_000];
  const casbinVariant = env.AUTHZ_BENCH_CASBIN_MODEL ?? "rbac";
  if (casbinVariant !== "rbac" && casbinVariant !== "rbac-with-deny" && casbinVariant !== "priority") {
    throw new AuthzBenchUsageError(
      `AUTHZ_BENCH_CASBIN_MODEL must be rbac, rbac-with-deny or priority, not '${casbinVariant}'`,
    );
  }
  const pdp = env.AUTHZ_BENCH_PDP ?? "auto";
  if (pdp !== "auto" && pdp !== "platform" && pdp !== "reference") {
    throw new AuthzBenchUsageError(`AUTHZ_BENCH_PDP must be auto, platform or reference, not '${pdp}'`);
  }
  const seconds = Number(env.AUTHZ_BENCH_SECONDS ?? (quick ? "0.1" : "0.5"));
  if (!(seconds > 0 && seconds <= 60))
    throw new AuthzBenchUsageError("AUTHZ_BENCH_SECONDS must be in (0, 60]");
  return {
    quick,
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    requestCount: positiveInt("AUTHZ_BENCH_REQUESTS", env.AUTHZ_BENCH_REQUESTS ?? (quick ? "4000" : "20000")),
    repetitions: positiveInt("AUTHZ_BENCH_REPS", env.AUTHZ_BENCH_REPS ?? (quick ? "3" : "5")),
    secondsPerSide: seconds,
    rebuilds: quick ? 2 : 5,
    casbinVariant,
    pdp,
    pdpModule: env.AUTHZ_BENCH_PDP_MODULE || undefined,
    seed: env.AUTHZ_BENCH_SEED ? positiveInt("AUTHZ_BENCH_SEED", env.AUTHZ_BENCH_SEED) : DEFAULT_SEED,
    timeoutMs: positiveInt("AUTHZ_BENCH_TIMEOUT_MS", env.AUTHZ_BENCH_TIMEOUT_MS ?? "900000"),
  };
}

function flag(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new AuthzBenchUsageError(`${name} must be a positive integer, not '${value}'`);
  return n;
}
