import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { InMemorySignInHistoryStore } from "./in-memory-sign-in-history-store.js";
import { SIGN_IN_HISTORY_LIMITS } from "./sign-in-history-store.js";
import { describeSignInHistoryStoreContract } from "./sign-in-history-store.contract.js";

describeSignInHistoryStoreContract(
  "InMemorySignInHistoryStore",
  (clock) => new InMemorySignInHistoryStore({ clock }),
);

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 9, 30);

function fixture(maxUsers?: number) {
  const clock = new ManualClock(T0);
  const store = new InMemorySignInHistoryStore(maxUsers === undefined ? { clock } : { clock, maxUsers });
  return { clock, store };
}

describe("InMemorySignInHistoryStore", () => {
  it("answers an empty history for a user never recorded", async () => {
    const { store } = fixture();
    expect(await store.historyOf("nobody")).toEqual({
      knownDevices: [],
      knownNetworks: [],
      recentFailures: 0,
      usualHours: [],
      signInCount: 0,
    });
  });

  it("remembers devices, networks, hours and the count, most recent first", async () => {
    const { store } = fixture();
    await store.recordSuccess({ userId: "u1", remoteAddress: "203.0.113.7", deviceId: "d1", at: T0 });
    await store.recordSuccess({
      userId: "u1",
      remoteAddress: "2001:db8::1",
      deviceId: "d2",
      at: Date.UTC(2026, 0, 2, 22),
    });
    await store.recordSuccess({ userId: "u1", remoteAddress: "203.0.113.99", deviceId: "d1", at: T0 });
    expect(await store.historyOf("u1")).toEqual({
      knownDevices: ["d1", "d2"],
      knownNetworks: ["203.0.113.0/24", "2001:db8:0:0::/64"],
      recentFailures: 0,
      usualHours: [9, 22],
      signInCount: 3,
    });
  });

  it("ignores an absent or malformed device id and an address that is not an IP", async () => {
    const { store } = fixture();
    await store.recordSuccess({ userId: "u1", remoteAddress: "unknown", deviceId: undefined, at: T0 });
    await store.recordSuccess({ userId: "u1", remoteAddress: "unknown", deviceId: "<script>", at: T0 });
    const history = await store.historyOf("u1");
    expect(history.knownDevices).toEqual([]);
    expect(history.knownNetworks).toEqual([]);
    expect(history.signInCount).toBe(2);
  });

  it("keeps the last 20 devices and 20 networks", async () => {
    const { store } = fixture();
    for (let i = 0; i < 25; i++) {
      await store.recordSuccess({ userId: "u1", remoteAddress: `10.0.${i}.1`, deviceId: `d${i}`, at: T0 });
    }
    const history = await store.historyOf("u1");
    expect(history.knownDevices).toHaveLength(SIGN_IN_HISTORY_LIMITS.maxDevices);
    expect(history.knownDevices[0]).toBe("d24");
    expect(history.knownDevices).not.toContain("d4");
    expect(history.knownDevices).toContain("d5");
    expect(history.knownNetworks).toHaveLength(SIGN_IN_HISTORY_LIMITS.maxNetworks);
    expect(history.knownNetworks).not.toContain("10.0.4.0/24");
    expect(history.signInCount).toBe(25);
  });

  it("counts failures for 15 minutes on the clock (sliding)", async () => {
    const { clock, store } = fixture();
    await store.recordFailure({ userId: "u1", at: clock.now() });
    clock.advance(10 * MINUTE);
    await store.recordFailure({ userId: "u1", at: clock.now() });
    expect((await store.historyOf("u1")).recentFailures).toBe(2);
    clock.advance(5 * MINUTE - 1);
    expect((await store.historyOf("u1")).recentFailures).toBe(2);
    clock.advance(1);
    expect((await store.historyOf("u1")).recentFailures).toBe(1);
    clock.advance(10 * MINUTE);
    expect((await store.historyOf("u1")).recentFailures).toBe(0);
    expect((await store.historyOf("u2")).recentFailures).toBe(0);
  });

  it("saturates the failure count and clears it on a completed sign-in", async () => {
    const { clock, store } = fixture();
    for (let i = 0; i < 30; i++) await store.recordFailure({ userId: "u1", at: clock.now() });
    expect((await store.historyOf("u1")).recentFailures).toBe(SIGN_IN_HISTORY_LIMITS.maxFailuresPerUser);
    await store.recordSuccess({ userId: "u1", remoteAddress: "10.0.0.1", deviceId: "d1", at: clock.now() });
    expect((await store.historyOf("u1")).recentFailures).toBe(0);
  });

  it("evicts the user written least recently beyond maxUsers", async () => {
    const { store } = fixture(3);
    for (const userId of ["a", "b", "c"]) {
      await store.recordSuccess({ userId, remoteAddress: "10.0.0.1", deviceId: "d", at: T0 });
    }
    await store.recordSuccess({ userId: "a", remoteAddress: "10.0.0.1", deviceId: "d", at: T0 });
    await store.recordSuccess({ userId: "d", remoteAddress: "10.0.0.1", deviceId: "d", at: T0 });
    expect((await store.historyOf("b")).signInCount).toBe(0);
    expect((await store.historyOf("a")).signInCount).toBe(2);
    expect(store.size()).toEqual({ successes: 3, failures: 0 });
  });

  it("never lets a flood of failures evict learned histories", async () => {
    const { store } = fixture(3);
    await store.recordSuccess({ userId: "alice", remoteAddress: "10.0.0.1", deviceId: "d", at: T0 });
    for (let i = 0; i < 10; i++) await store.recordFailure({ userId: `x${i}`, at: T0 });
    expect((await store.historyOf("alice")).knownDevices).toEqual(["d"]);
    expect(store.size()).toEqual({ successes: 1, failures: 3 });
    expect((await store.historyOf("x0")).recentFailures).toBe(0);
    expect((await store.historyOf("x9")).recentFailures).toBe(1);
  });

  it("returns frozen snapshots that later sign-ins do not change", async () => {
    const { store } = fixture();
    await store.recordSuccess({ userId: "u1", remoteAddress: "10.0.0.1", deviceId: "d1", at: T0 });
    const before = await store.historyOf("u1");
    await store.recordSuccess({ userId: "u1", remoteAddress: "10.9.0.1", deviceId: "d2", at: T0 });
    expect(before.knownDevices).toEqual(["d1"]);
    expect(Object.isFrozen(before)).toBe(true);
    expect(Object.isFrozen(before.knownNetworks)).toBe(true);
  });

  it("refuses a maxUsers below 1", () => {
    let code = "accepted";
    try {
      new InMemorySignInHistoryStore({ clock: new ManualClock(), maxUsers: 0 });
    } catch (error) {
      code = isPlatformError(error) ? error.code : String(error);
    }
    expect(code).toBe("CONFIGURATION_INVALID");
  });
});
