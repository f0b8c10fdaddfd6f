import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryMfaLockouts } from "./in-memory-mfa-lockouts.js";
import { describeMfaLockoutsContract } from "./mfa-lockouts.contract.js";

describeMfaLockoutsContract("InMemoryMfaLockouts", (clock) => new InMemoryMfaLockouts(clock));

describe("InMemoryMfaLockouts", () => {
  it("holds at most maxEntries locks, forgetting the one written least recently", async () => {
    const clock = new ManualClock();
    const lockouts = new InMemoryMfaLockouts(clock, 2);
    const until = clock.now() + 60_000;
    for (const user of ["a", "b", "c"]) await lockouts.lock(user, until);
    expect(await lockouts.lockedUntil("a")).toBeUndefined();
    expect(await lockouts.lockedUntil("b")).toBe(until);
    expect(await lockouts.lockedUntil("c")).toBe(until);
  });

  it("holds at most maxEntries failure counters, forgetting the one written least recently", async () => {
    const clock = new ManualClock();
    const lockouts = new InMemoryMfaLockouts(clock, 2);
    for (const user of ["a", "b", "c"]) await lockouts.reserveAttempt(user, 1, 2, 60_000);
    // a's first attempt was forgotten: one more counts 1.
    expect(await lockouts.reserveAttempt("a", 1, 2, 60_000)).toEqual({ failures: 1 });
    // c's was kept: its second attempt counts 2.
    expect(await lockouts.reserveAttempt("c", 1, 2, 60_000)).toEqual({ failures: 2 });
  });
});
