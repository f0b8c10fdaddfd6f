import { beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { MfaLockouts } from "./mfa-lockouts.js";

/**
 * The behaviour every MfaLockouts adapter must show. `factory` returns a fresh, empty lockout list that
 * reads time from `clock`. The in-memory adapter always runs it; a database one when it can reach its
 * server.
 */
export function describeMfaLockoutsContract(
  name: string,
  factory: (clock: ManualClock) => Promise<MfaLockouts> | MfaLockouts,
): void {
  describe(`MfaLockouts contract: ${name}`, () => {
    const MAX = 3;
    const WINDOW = 60_000;
    let clock: ManualClock;
    let lockouts: MfaLockouts;
    let t0: number;

    /** Takes `times` attempts (weight 1) for `userId` and returns what each call answered. */
    async function reserve(userId: string, times: number) {
      const answers: Awaited<ReturnType<MfaLockouts["reserveAttempt"]>>[] = [];
      for (let i = 0; i < times; i++) answers.push(await lockouts.reserveAttempt(userId, 1, MAX, WINDOW));
      return answers;
    }
    const counts = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ failures: from + i }));

    beforeEach(async () => {
      clock = new ManualClock();
      t0 = clock.now();
      lockouts = await factory(clock);
    });

    describe("lock and lockedUntil", () => {
      it("knows no lock for a user never locked", async () => {
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
      });

      it("holds a lock until its end exactly, for that user only", async () => {
        await lockouts.lock("alice", t0 + 10_000);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 10_000);
        expect(await lockouts.lockedUntil("bob")).toBeUndefined();
        clock.advance(9_999);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 10_000);
        clock.advance(1);
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
      });

      it("keeps the later end: an earlier one never shortens a lock", async () => {
        await lockouts.lock("alice", t0 + 10_000);
        await lockouts.lock("alice", t0 + 5_000);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 10_000);
        await lockouts.lock("alice", t0 + 20_000);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 20_000);
      });

      it("keeps the latest end of concurrent locks", async () => {
        await Promise.all([5, 30, 10, 20].map((s) => lockouts.lock("alice", t0 + s * 1_000)));
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 30_000);
      });

      it("ends a lock and forgets failures on unlock", async () => {
        await reserve("alice", MAX - 1);
        await lockouts.lock("alice", t0 + 10_000);
        await lockouts.unlock("alice");
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        expect(await reserve("alice", MAX - 1)).toEqual(counts(MAX - 1));
        await lockouts.unlock("nobody");
      });
    });

    describe("reserveAttempt", () => {
      it("counts each attempt and answers the count; beyond max it refuses and locks for windowMs", async () => {
        expect(await reserve("alice", MAX)).toEqual(counts(MAX));
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        clock.advance(1_000);
        expect(await lockouts.reserveAttempt("alice", 1, MAX, WINDOW)).toEqual({
          lockedUntil: t0 + 1_000 + WINDOW,
        });
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 1_000 + WINDOW);
        expect(await lockouts.reserveAttempt("bob", 1, MAX, WINDOW)).toEqual({ failures: 1 });
      });

      it("refuses while a lock lasts, answering its end; an ended lock refuses nothing", async () => {
        await lockouts.lock("alice", t0 + 10_000);
        expect(await lockouts.reserveAttempt("alice", 1, MAX, WINDOW)).toEqual({ lockedUntil: t0 + 10_000 });
        clock.advance(10_000);
        expect(await lockouts.reserveAttempt("alice", 1, MAX, WINDOW)).toEqual({ failures: 1 });
      });

      it("counts an attempt as its weight, and still takes one below max", async () => {
        expect(await lockouts.reserveAttempt("alice", 2, MAX, WINDOW)).toEqual({ failures: 2 });
        expect(await lockouts.reserveAttempt("alice", 2, MAX, WINDOW)).toEqual({ failures: 4 });
        expect(await lockouts.reserveAttempt("alice", 1, MAX, WINDOW)).toEqual({ lockedUntil: t0 + WINDOW });
      });

      it("counts within a window opened by the first attempt; later ones do not extend it", async () => {
        await reserve("alice", 1);
        clock.advance(30_000);
        expect(await reserve("alice", 1)).toEqual([{ failures: 2 }]);
        clock.advance(WINDOW - 30_000);
        expect(await reserve("alice", MAX)).toEqual(counts(MAX));
      });

      it("starts a new count after a lock: the attempts that caused it are spent", async () => {
        await reserve("alice", MAX + 1);
        clock.advance(WINDOW);
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        expect(await reserve("alice", MAX)).toEqual(counts(MAX));
      });

      it("forgets the count on clearFailures but keeps a lock", async () => {
        await reserve("alice", MAX);
        await lockouts.clearFailures("alice");
        expect(await reserve("alice", MAX)).toEqual(counts(MAX));
        await lockouts.lock("bob", t0 + 10_000);
        await lockouts.clearFailures("bob");
        expect(await lockouts.lockedUntil("bob")).toBe(t0 + 10_000);
        await lockouts.clearFailures("nobody");
      });

      it("takes weight, max and windowMs from each call", async () => {
        expect(await lockouts.reserveAttempt("alice", 1, 1, 5_000)).toEqual({ failures: 1 });
        expect(await lockouts.reserveAttempt("alice", 1, 1, 5_000)).toEqual({ lockedUntil: t0 + 5_000 });
        expect(await lockouts.reserveAttempt("bob", 1, 10, 5_000)).toEqual({ failures: 1 });
      });

      it("of N concurrent attempts takes exactly max, each with its own count; the others are refused", async () => {
        const answers = await Promise.all(
          Array.from({ length: MAX + 4 }, () => lockouts.reserveAttempt("alice", 1, MAX, WINDOW)),
        );
        const taken = answers.flatMap((a) => ("failures" in a ? [a.failures] : []));
        expect(taken.sort()).toEqual(counts(MAX).map((c) => c.failures));
        expect(answers.filter((a) => "lockedUntil" in a)).toHaveLength(4);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + WINDOW);
      });
    });
  });
}
