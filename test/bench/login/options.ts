/** Where the HTTP load generator runs: a worker thread (default) or the server's own event loop. */
export type ClientMode = "worker" | "inline";

/** Everything a benchmark run can be told, from the command line and the environment. */
export interface BenchOptions {
  /** `--quick`: small counts and short durations, a smoke run that finishes in seconds. */
  quick: boolean;
  /** Measured POST /api/login requests per concurrency level (BENCH_LOGIN_COUNT). */
  loginCount: number;
  /** Measured scrypt verifications per concurrency level (BENCH_SCRYPT_COUNT, default loginCount). */
  scryptCount: number;
  /** How long each GET /api/me run lasts, in ms (BENCH_DURATION_MS). */
  durationMs: number;
  /** When set, each GET /api/me run sends this many requests instead of running for durationMs (BENCH_ME_COUNT). */
  meCount: number | undefined;
  /** Measured complete MFA OTT flows per concurrency level (BENCH_MFA_COUNT). */
  mfaCount: number;
  /** Pending MFA flows created for the memory measurement (BENCH_MFA_SESSIONS). */
  mfaSessions: number;
  /** Concurrency levels of scenario A, of the MFA flows and of the scrypt baseline (BENCH_LOGIN_CONCURRENCY, `1,4`). */
  loginConcurrency: number[];
  /** Concurrency levels of scenario B (BENCH_ME_CONCURRENCY, `1,16`). */
  meConcurrency: number[];
  /** Where the HTTP client runs (BENCH_CLIENT=worker|inline). */
  client: ClientMode;
  /** Give up on one request after this many ms (counted as an error). */
  requestTimeoutMs: number;
  /** The whole run is aborted (exit 2) after this many ms (BENCH_TIMEOUT_MS; 15 min, quick 60 s). */
  timeoutMs: number;
}

/**
 * The authenticator lets at most this many sign-in attempts of one client address run or wait
 * (MAX_PENDING_ATTEMPTS_PER_ADDRESS); a login concurrency above it would measure 429 answers.
 */
export const MAX_LOGIN_CONCURRENCY = 32;
/** Upper bound of any concurrency level, so a typo cannot open thousands of sockets. */
export const MAX_CONCURRENCY = 256;
/** Upper bounds of counts and durations: every run must end by itself in reasonable time. */
export const MAX_COUNT = 1_000_000;
export const MAX_DURATION_MS = 600_000;
/** The in-memory FactorContextRepository keeps at most 100_000 flows (it evicts the oldest beyond). */
export const MAX_MFA_SESSIONS = 100_000;

export const USAGE = `Usage: pnpm bench [-- --quick]

Benchmarks REST login (scrypt + JWT issue) and an authenticated request against the demo server
started in-process on 127.0.0.1, next to the bare scrypt rate at the same parameters; then complete
MFA OTT flows of \`admin\` (GET /login, POST /login, the code handed to the delivery port,
POST /login/mfa-ott) and the memory of one pending MFA flow (child process with --expose-gc).

Flags:
  --quick        smoke run with small counts (a few seconds)
  --help         this text

Environment:
  BENCH_LOGIN_COUNT        measured logins per concurrency level (default 100, quick 6)
  BENCH_SCRYPT_COUNT       measured scrypt verifications per level (default: BENCH_LOGIN_COUNT)
  BENCH_DURATION_MS        length of each GET /api/me run (default 5000, quick 500)
  BENCH_ME_COUNT           GET /api/me requests per run instead of a duration
  BENCH_MFA_COUNT          measured MFA flows per concurrency level (default 100, quick 6)
  BENCH_MFA_SESSIONS       pending MFA flows for the memory measurement, at most ${MAX_MFA_SESSIONS}
                           (default 10000, quick 1000)
  BENCH_LOGIN_CONCURRENCY  comma list, at most ${MAX_LOGIN_CONCURRENCY} (default 1,4), also used by the MFA flows
  BENCH_ME_CONCURRENCY     comma list (default 1,16)
  BENCH_CLIENT             worker (default) or inline: where the HTTP load generator runs
  BENCH_TIMEOUT_MS         abort the whole run after this long (default 900000, quick 60000)
`;

/** A command-line or environment value the benchmark cannot use. */
export class BenchUsageError extends Error {
  override readonly name = "BenchUsageError";
}

/** Parses argv (after the script name) and the environment; throws BenchUsageError on bad input. */
export function parseBenchOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BenchOptions | "help" {
  let quick = false;
  for (const arg of argv) {
    if (arg === "--") continue; // `pnpm bench -- --quick` may pass the separator through
    if (arg === "--quick") quick = true;
    else if (arg === "--help" || arg === "-h") return "help";
    else throw new BenchUsageError(`Unknown argument: ${arg}`);
  }
  const loginCount = positiveInt(env, "BENCH_LOGIN_COUNT", quick ? 6 : 100, MAX_COUNT);
  const client = env.BENCH_CLIENT ?? "worker";
  if (client !== "worker" && client !== "inline") {
    throw new BenchUsageError(`BENCH_CLIENT must be worker or inline, not ${client}`);
  }
  return {
    quick,
    loginCount,
    scryptCount: positiveInt(env, "BENCH_SCRYPT_COUNT", loginCount, MAX_COUNT),
    mfaCount: positiveInt(env, "BENCH_MFA_COUNT", quick ? 6 : 100, MAX_COUNT),
    mfaSessions: positiveInt(env, "BENCH_MFA_SESSIONS", quick ? 1_000 : 10_000, MAX_MFA_SESSIONS),
    durationMs: positiveInt(env, "BENCH_DURATION_MS", quick ? 500 : 5_000, MAX_DURATION_MS),
    meCount: env.BENCH_ME_COUNT === undefined ? undefined : positiveInt(env, "BENCH_ME_COUNT", 1, MAX_COUNT),
    loginConcurrency: intList(env, "BENCH_LOGIN_CONCURRENCY", [1, 4], MAX_LOGIN_CONCURRENCY),
    meConcurrency: intList(env, "BENCH_ME_CONCURRENCY", [1, 16], MAX_CONCURRENCY),
    client,
    requestTimeoutMs: 30_000,
    timeoutMs: positiveInt(env, "BENCH_TIMEOUT_MS", quick ? 60_000 : 900_000, 3_600_000),
  };
}

function positiveInt(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  return checkedInt(name, raw.trim(), max);
}

function intList(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number[],
  max: number,
): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const values = raw.split(",").map((part) => checkedInt(name, part.trim(), max));
  return [...new Set(values)];
}

function checkedInt(name: string, text: string, max: number): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new BenchUsageError(`${name} must be an integer in 1..${max}, not "${text}"`);
  }
  return value;
}
