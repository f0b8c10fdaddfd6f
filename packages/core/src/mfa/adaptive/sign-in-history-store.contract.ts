import { beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import {
  SIGN_IN_HISTORY_LIMITS,
  type SignInHistoryStore,
  type SignInSuccess,
} from "./sign-in-history-store.js";

/**
 * The behaviour every SignInHistoryStore adapter must show. `factory` returns a fresh, empty store that
 * reads time from `clock`. The in-memory adapter always runs it; a database one when it can reach its
 * server.
 */
export function describeSignInHistoryStoreContract(
  name: string,
  factory: (clock: ManualClock) => Promise<SignInHistoryStore> | SignInHistoryStore,
): void {
  describe(`SignInHistoryStore contract: ${name}`, () => {
    const T0 = Date.UTC(2026, 0, 1, 9, 30);
    const { failureWindowMs, maxDevices, maxNetworks, maxFailuresPerUser } = SIGN_IN_HISTORY_LIMITS;
    let clock: ManualClock;
    let store: SignInHistoryStore;
    const success = (over: Partial<SignInSuccess> = {}): SignInSuccess => ({
      userId: "u1",
      remoteAddress: "203.0.113.7",
      deviceId: "d1",
      at: clock.now(),
      ...over,
    });
    const fail = (userId = "u1") => store.recordFailure({ userId, at: clock.now() });

    beforeEach(async () => {
      clock = new ManualClock(T0);
      store = await factory(clock);
    });

    it("answers an empty history for a user never recorded", async () => {
      expect(await store.historyOf("nobody")).toEqual({
        knownDevices: [],
        knownNetworks: [],
        recentFailures: 0,
        usualHours: [],
        signInCount: 0,
      });
    });

    it("remembers devices and networks most recent first, UTC hours ascending, and the count", async () => {
      await store.recordSuccess(success());
      await store.recordSuccess(
        success({ remoteAddress: "2001:db8::1", deviceId: "d2", at: Date.UTC(2026, 0, 2, 22) }),
      );
      await store.recordSuccess(success({ remoteAddress: "203.0.113.99", at: Date.UTC(2026, 0, 3, 3) }));
      expect(await store.historyOf("u1")).toEqual({
        knownDevices: ["d1", "d2"],
        knownNetworks: ["203.0.113.0/24", "2001:db8:0:0::/64"],
        recentFailures: 0,
        usualHours: [3, 9, 22],
        signInCount: 3,
      });
      expect((await store.historyOf("u2")).signInCount).toBe(0);
    });

    it("ignores an absent or malformed device id and an address that is not an IP", async () => {
      await store.recordSuccess(success({ remoteAddress: "unknown", deviceId: undefined }));
      await store.recordSuccess(success({ remoteAddress: "unknown", deviceId: "<script>" }));
      expect(await store.historyOf("u1")).toMatchObject({
        knownDevices: [],
        knownNetworks: [],
        signInCount: 2,
      });
    });

    it("keeps the last maxDevices devices and maxNetworks networks", async () => {
      const n = Math.max(maxDevices, maxNetworks) + 5;
      for (let i = 0; i < n; i++) {
        await store.recordSuccess(success({ remoteAddress: `10.0.${i}.1`, deviceId: `d${i}` }));
      }
      const history = await store.historyOf("u1");
      expect(history.knownDevices).toEqual(Array.from({ length: maxDevices }, (_, i) => `d${n - 1 - i}`));
      expect(history.knownNetworks).toEqual(
        Array.from({ length: maxNetworks }, (_, i) => `10.0.${n - 1 - i}.0/24`),
      );
      expect(history.signInCount).toBe(n);
    });

    it("counts a failure for failureWindowMs on the clock, to the millisecond", async () => {
      await fail();
      clock.advance(10 * 60_000);
      await fail();
      expect((await store.historyOf("u1")).recentFailures).toBe(2);
      clock.advance(failureWindowMs - 10 * 60_000 - 1);
      expect((await store.historyOf("u1")).recentFailures).toBe(2);
      clock.advance(1);
      expect((await store.historyOf("u1")).recentFailures).toBe(1);
      clock.advance(10 * 60_000);
      expect((await store.historyOf("u1")).recentFailures).toBe(0);
      expect((await store.historyOf("u2")).recentFailures).toBe(0);
    });

    it("saturates the failure count at maxFailuresPerUser", async () => {
      for (let i = 0; i < maxFailuresPerUser + 10; i++) await fail();
      expect((await store.historyOf("u1")).recentFailures).toBe(maxFailuresPerUser);
    });

    it("clears the user's failures, and only theirs, on a completed sign-in", async () => {
      await fail("u1");
      await fail("u2");
      await store.recordSuccess(success());
      expect((await store.historyOf("u1")).recentFailures).toBe(0);
      expect((await store.historyOf("u2")).recentFailures).toBe(1);
    });

    it("returns frozen snapshots that later sign-ins do not change", async () => {
      await store.recordSuccess(success());
      const before = await store.historyOf("u1");
      await store.recordSuccess(success({ remoteAddress: "10.9.0.1", deviceId: "d2" }));
      expect(before).toMatchObject({
        knownDevices: ["d1"],
        knownNetworks: ["203.0.113.0/24"],
        signInCount: 1,
      });
      expect(Object.isFrozen(before)).toBe(true);
      expect(Object.isFrozen(before.knownDevices)).toBe(true);
      expect(Object.isFrozen(before.knownNetworks)).toBe(true);
      expect(Object.isFrozen(before.usualHours)).toBe(true);
    });

    it("counts every one of N concurrent sign-ins and failures", async () => {
      const n = 10;
      await Promise.all(
        Array.from({ length: n }, (_, i) => store.recordSuccess(success({ deviceId: `d${i}` }))),
      );
      const history = await store.historyOf("u1");
      expect(history.signInCount).toBe(n);
      expect([...history.knownDevices].sort()).toEqual(Array.from({ length: n }, (_, i) => `d${i}`).sort());
      await Promise.all(Array.from({ length: n }, () => fail("u2")));
      expect((await store.historyOf("u2")).recentFailures).toBe(n);
    });
  });
}
