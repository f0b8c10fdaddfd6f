/**
 * Runs tasks one after another per key, with a bound on how many may wait. The PasswordAuthenticator
 * runs each sign-in attempt (throttle check, hash, record) through it per client address: without it,
 * a burst of concurrent attempts would all pass `check` before the first failure is recorded, and the
 * throttle would let through as many guesses as the burst is wide. Per process only; several instances
 * can each let one attempt through at the same time, which bounds the overshoot by the instance count.
 */
export class AttemptSerializer {
  private readonly queues = new Map<string, { tail: Promise<void>; pending: number }>();

  /** @param maxPendingPerKey tasks of one key that may be running or waiting; at least 1. */
  constructor(private readonly maxPendingPerKey: number) {
    if (!Number.isSafeInteger(maxPendingPerKey) || maxPendingPerKey < 1) {
      throw new RangeError("maxPendingPerKey must be a positive integer");
    }
  }

  /** Tasks of `key` running or waiting; 0 for an idle key (idle keys hold no memory). */
  pending(key: string): number {
    return this.queues.get(key)?.pending ?? 0;
  }

  /**
   * Runs `task` once every earlier task of `key` has settled and returns its result; returns undefined,
   * without running it, when `maxPendingPerKey` tasks of `key` are already pending.
   */
  run<T>(key: string, task: () => Promise<T>): Promise<T> | undefined {
    let queue = this.queues.get(key);
    if (queue && queue.pending >= this.maxPendingPerKey) return undefined;
    if (!queue) {
      queue = { tail: Promise.resolve(), pending: 0 };
      this.queues.set(key, queue);
    }
    const current = queue;
    current.pending++;
    const result = current.tail.then(() => task());
    const settled = (): void => {
      current.pending--;
      if (current.pending === 0 && this.queues.get(key) === current) this.queues.delete(key);
    };
    current.tail = result.then(settled, settled);
    return result;
  }
}
