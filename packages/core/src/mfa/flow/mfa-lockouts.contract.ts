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

    /** Records `times` failures for `userId` and returns what each call answered. */
    async function fail(userId: string, times: number): Promise<(number | undefined)[]> {
      const answers: (number | undefined)[] = [];
      for (let i = 0; i < times; i++) answers.push(await lockouts.recordFailure(userId, MAX, WINDOW));
      return answers;
    }

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
        await fail("alice", MAX - 1);
        await lockouts.lock("alice", t0 + 10_000);
        await lockouts.unlock("alice");
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        expect(await fail("alice", MAX - 1)).toEqual(new Array(MAX - 1).fill(undefined));
        await lockouts.unlock("nobody");
      });
    });

    describe("recordFailure", () => {
      it("locks for windowMs at the max-th failure and answers the lock's end", async () => {
        expect(await fail("alice", MAX - 1)).toEqual(new Array(MAX - 1).fill(undefined));
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        clock.advance(1_000);
        expect(await lockouts.recordFailure("alice", MAX, WINDOW)).toBe(t0 + 1_000 + WINDOW);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 1_000 + WINDOW);
        expect(await lockouts.lockedUntil("bob")).toBeUndefined();
      });

      it("counts failures per user", async () => {
        await fail("alice", MAX - 1);
        await fail("bob", MAX - 1);
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        expect(await lockouts.lockedUntil("bob")).toBeUndefined();
      });

      it("counts within a window opened by the first failure; later failures do not extend it", async () => {
        await fail("alice", 1);
        clock.advance(30_000);
        await fail("alice", 1);
        clock.advance(WINDOW - 30_000 - 1);
        expect(await lockouts.recordFailure("alice", MAX, WINDOW)).toBe(clock.now() + WINDOW);
      });

      it("counts from zero again once the window has ended", async () => {
        await fail("alice", MAX - 1);
        clock.advance(WINDOW);
        expect(await fail("alice", MAX - 1)).toEqual(new Array(MAX - 1).fill(undefined));
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        expect(await lockouts.recordFailure("alice", MAX, WINDOW)).toBe(clock.now() + WINDOW);
      });

      it("starts a new count after a lock: the failures that caused it are spent", async () => {
        await fail("alice", MAX);
        clock.advance(WINDOW);
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
        expect(await fail("alice", MAX - 1)).toEqual(new Array(MAX - 1).fill(undefined));
        expect(await lockouts.lockedUntil("alice")).toBeUndefined();
      });

      it("forgets failures on clearFailures but keeps a lock", async () => {
        await fail("alice", MAX - 1);
        await lockouts.clearFailures("alice");
        expect(await fail("alice", MAX - 1)).toEqual(new Array(MAX - 1).fill(undefined));
        await lockouts.lock("bob", t0 + 10_000);
        await lockouts.clearFailures("bob");
        expect(await lockouts.lockedUntil("bob")).toBe(t0 + 10_000);
        await lockouts.clearFailures("nobody");
      });

      it("takes max and windowMs from each call", async () => {
        expect(await lockouts.recordFailure("alice", 1, 5_000)).toBe(t0 + 5_000);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + 5_000);
        expect(await lockouts.recordFailure("bob", 10, 5_000)).toBeUndefined();
      });

      it("counts every one of N concurrent failures: exactly one of them locks", async () => {
        const answers = await Promise.all(
          Array.from({ length: MAX }, () => lockouts.recordFailure("alice", MAX, WINDOW)),
        );
        expect(answers.filter((a) => a !== undefined)).toEqual([t0 + WINDOW]);
        expect(await lockouts.lockedUntil("alice")).toBe(t0 + WINDOW);
      });
    });
  });
}
