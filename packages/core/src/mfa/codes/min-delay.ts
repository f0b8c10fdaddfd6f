import { setTimeout as sleep } from "node:timers/promises";

/** Options of withMinimumDuration. */
export interface MinimumDurationOptions {
  /** Also pad a successful result. Default false: only rejections are padded. */
  readonly padSuccess?: boolean;
}

/**
 * Runs `task` and, when it rejects (or throws), waits until at least `ms` have passed since the start
 * before rethrowing the same error. MFA pads every rejection to a minimum delay (500 ms by default,
 * `platform.auth.mfa.minimumRejectionDelayMs`), so a wrong code, an unknown session and a locked
 * account take alike long and timing tells an attacker nothing. Success is not padded unless
 * `padSuccess` is set. Uses real timers and `performance.now`, not the Clock port: the delay is
 * about wall time the client observes. Tests use a small `ms`.
 */
export async function withMinimumDuration<T>(
  ms: number,
  task: () => Promise<T>,
  options: MinimumDurationOptions = {},
): Promise<T> {
  const start = performance.now();
  let result: T;
  try {
    result = await task();
  } catch (error) {
    await padFrom(start, ms);
    throw error;
  }
  if (options.padSuccess) await padFrom(start, ms);
  return result;
}

async function padFrom(start: number, ms: number): Promise<void> {
  const remaining = Math.ceil(ms - (performance.now() - start));
  if (Number.isFinite(remaining) && remaining > 0) await sleep(remaining);
}
