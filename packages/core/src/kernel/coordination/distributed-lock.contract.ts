import { describe, expect, it } from "vitest";
import { type Clock, ManualClock } from "../clock.js";
import { codeOf } from "../error-code.test-support.js";
import type { DistributedLock } from "./distributed-lock.js";

const T0 = Date.UTC(2026, 0, 1);
const TTL = 30_000;
const LOCK = "platform.available-administrators";

/** `n` distinct owners, as `n` instances (or calls) would name themselves. */
const owners = (n: number, prefix = "instance") => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);

/**
 * The behaviour every DistributedLock adapter must show. `factory` returns a fresh, empty lock store
 * reading time from `clock`. Races between instances are run as concurrent calls: exactly one owner
 * may win a free or lapsed lock.
 */
export function describeDistributedLockContract(
  name: string,
  factory: (clock: Clock) => Promise<DistributedLock> | DistributedLock,
): void {
  describe(`DistributedLock contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock(T0);
      return { clock, lock: await factory(clock) };
    };

    describe("tryAcquire", () => {
      it("grants a free lock to its first owner until now + ttl", async () => {
        const { lock } = await setup();
        expect(await lock.tryAcquire(LOCK, "a", TTL)).toEqual({
          name: LOCK,
          owner: "a",
          expiresAt: T0 + TTL,
        });
      });

      it("refuses a second owner while the lease is live, and keeps the holder's lease", async () => {
        const { clock, lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toBeUndefined();
        clock.advance(TTL - 1);
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toBeUndefined();
        expect(await lock.tryAcquire(LOCK, "a", TTL)).toEqual({
          name: LOCK,
          owner: "a",
          expiresAt: T0 + TTL - 1 + TTL,
        });
      });

      it("renews the lease of the owner that holds it: expiresAt moves to now + the new ttl", async () => {
        const { clock, lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        clock.advance(10_000);
        expect((await lock.tryAcquire(LOCK, "a", TTL))?.expiresAt).toBe(T0 + 10_000 + TTL);
        clock.advance(TTL - 1);
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toBeUndefined();
        clock.advance(1);
        expect((await lock.tryAcquire(LOCK, "a", 5_000))?.expiresAt).toBe(T0 + 10_000 + TTL + 5_000);
      });

      it("lets another owner in from expiresAt on (the Clock decides the lapse)", async () => {
        const { clock, lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        clock.advance(TTL);
        expect(await lock.tryAcquire(LOCK, "b", 1_000)).toEqual({
          name: LOCK,
          owner: "b",
          expiresAt: T0 + TTL + 1_000,
        });
        expect(await lock.tryAcquire(LOCK, "a", TTL)).toBeUndefined();
      });

      it("gives a lapsed lease back to its former owner when nobody took it meanwhile", async () => {
        const { clock, lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        clock.advance(TTL + 5);
        expect((await lock.tryAcquire(LOCK, "a", TTL))?.expiresAt).toBe(T0 + TTL + 5 + TTL);
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toBeUndefined();
      });

      it("keeps names apart: a lease on one name blocks nobody on another", async () => {
        const { lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        expect(await lock.tryAcquire("platform.inspection-round", "b", TTL)).toMatchObject({ owner: "b" });
        expect(await lock.tryAcquire(`${LOCK}.other`, "b", TTL)).toMatchObject({ owner: "b" });
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toBeUndefined();
      });

      it("refuses an empty name or owner and a ttl that is not a finite number > 0 (VALIDATION_FAILED), changing nothing", async () => {
        const { lock } = await setup();
        const bad: [string, string, number][] = [
          ["", "a", TTL],
          [LOCK, "", TTL],
          [undefined as unknown as string, "a", TTL],
          [LOCK, 42 as unknown as string, TTL],
          [LOCK, "a", 0],
          [LOCK, "a", -1],
          [LOCK, "a", Number.NaN],
          [LOCK, "a", Number.POSITIVE_INFINITY],
          [LOCK, "a", "1000" as unknown as number],
        ];
        for (const [lockName, owner, ttl] of bad)
          expect(
            await codeOf(lock.tryAcquire(lockName, owner, ttl)),
            JSON.stringify([lockName, owner, ttl]),
          ).toBe("VALIDATION_FAILED");
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toMatchObject({ owner: "b" });
      });
    });

    describe("release", () => {
      it("frees the lock when its owner releases it, so another owner gets it at once", async () => {
        const { lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        expect(await lock.release(LOCK, "a")).toBe(true);
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toMatchObject({ owner: "b" });
        expect(await lock.release(LOCK, "a")).toBe(false);
      });

      it("is refused to anyone but the owner, and the owner's lease stays", async () => {
        const { lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        expect(await lock.release(LOCK, "b")).toBe(false);
        expect(await lock.release(`${LOCK}.other`, "a")).toBe(false);
        expect(await lock.tryAcquire(LOCK, "b", TTL)).toBeUndefined();
      });

      it("releases a lapsed lease for its owner, and not once another owner took the lock", async () => {
        const { clock, lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        clock.advance(TTL + 1);
        expect(await lock.release(LOCK, "a")).toBe(true);
        expect(await lock.release(LOCK, "a")).toBe(false);
        await lock.tryAcquire(LOCK, "a", TTL);
        clock.advance(TTL);
        await lock.tryAcquire(LOCK, "b", TTL);
        expect(await lock.release(LOCK, "a")).toBe(false);
        expect(await lock.tryAcquire(LOCK, "c", TTL)).toBeUndefined();
      });

      it("answers false for a lock nobody ever took", async () => {
        const { lock } = await setup();
        expect(await lock.release(LOCK, "a")).toBe(false);
      });
    });

    describe("races between instances", () => {
      it("grants a free lock to exactly one of many concurrent owners", async () => {
        const { lock } = await setup();
        const grants = await Promise.all(owners(8).map((owner) => lock.tryAcquire(LOCK, owner, TTL)));
        const won = grants.filter((g) => g !== undefined);
        expect(won).toHaveLength(1);
        const winner = won[0]!.owner;
        expect(owners(8)).toContain(winner);
        for (const other of owners(8).filter((o) => o !== winner))
          expect(await lock.tryAcquire(LOCK, other, TTL)).toBeUndefined();
        expect(await lock.release(LOCK, winner)).toBe(true);
      });

      it("grants a lapsed lock to exactly one of many concurrent owners", async () => {
        const { clock, lock } = await setup();
        await lock.tryAcquire(LOCK, "crashed", TTL);
        clock.advance(TTL);
        const grants = await Promise.all(owners(8).map((owner) => lock.tryAcquire(LOCK, owner, TTL)));
        const won = grants.filter((g) => g !== undefined);
        expect(won).toHaveLength(1);
        expect(won[0]).toMatchObject({ name: LOCK, expiresAt: T0 + 2 * TTL });
        expect(await lock.tryAcquire(LOCK, "crashed", TTL)).toBeUndefined();
        expect(await lock.release(LOCK, "crashed")).toBe(false);
      });

      it("grants one lock per name when owners race for several names at once", async () => {
        const { lock } = await setup();
        const names = ["n1", "n2", "n3"];
        const tries = names.flatMap((n) => owners(4).map((owner) => ({ n, owner })));
        const grants = await Promise.all(tries.map(({ n, owner }) => lock.tryAcquire(n, owner, TTL)));
        const won = grants.filter((g) => g !== undefined);
        expect(won.map((g) => g.name).sort()).toEqual(names);
      });

      it("renews for every concurrent call of the owner that holds the lock", async () => {
        const { lock } = await setup();
        await lock.tryAcquire(LOCK, "a", TTL);
        const grants = await Promise.all([1, 2, 3, 4].map(() => lock.tryAcquire(LOCK, "a", TTL)));
        expect(grants.every((g) => g?.owner === "a")).toBe(true);
      });
    });
  });
}
