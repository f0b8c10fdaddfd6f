import { describe, expect, it } from "vitest";
import { DecisionQueue } from "./decision-queue.js";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("DecisionQueue", () => {
  it("runs at most `concurrency` jobs and refuses past `capacity` waiting ones", async () => {
    const q = new DecisionQueue({ capacity: 2, concurrency: 1, timeoutMs: 10_000 });
    const g = gate();
    const order: number[] = [];
    const job = (n: number) => async () => {
      order.push(n);
      await g.opened;
    };
    expect([1, 2, 3, 4].map((n) => q.offer(job(n)))).toEqual([true, true, true, false]);
    await Promise.resolve();
    expect(q.stats()).toMatchObject({ running: 1, waiting: 2, accepted: 3, dropped: 1 });
    g.open();
    await q.idle();
    expect(order).toEqual([1, 2, 3]);
    expect(q.stats()).toMatchObject({ completed: 3, running: 0, waiting: 0 });
  });

  it("aborts a job past its timeout, frees its slot and reports it", async () => {
    const failures: string[] = [];
    const q = new DecisionQueue({
      capacity: 5,
      concurrency: 1,
      timeoutMs: 10,
      onFailure: (reason, _e, tag) => failures.push(`${reason}:${tag}`),
    });
    let aborted = false;
    q.offer((signal) => new Promise(() => signal.addEventListener("abort", () => (aborted = true))), "slow");
    q.offer(async () => {
      throw new Error("boom");
    }, "bad");
    await q.idle();
    expect(aborted).toBe(true);
    expect(failures).toEqual(["timeout:slow", "error:bad"]);
    expect(q.stats()).toMatchObject({ timedOut: 1, failed: 1, completed: 0 });
  });
});
