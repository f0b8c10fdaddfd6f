import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { InMemoryLoginThrottle } from "./in-memory-login-throttle.js";
import { describeLoginThrottleContract } from "./login-throttle.contract.js";

describeLoginThrottleContract(
  "InMemoryLoginThrottle",
  (clock, limits) => new InMemoryLoginThrottle({ clock, ...limits }),
);

describe("InMemoryLoginThrottle", () => {
  const key = (username: string, remoteAddress = "203.0.113.1") => ({ username, remoteAddress });

  it("defaults to 5 per (account, address), 50 per address and 15-minute windows", async () => {
    const clock = new ManualClock();
    const throttle = new InMemoryLoginThrottle({ clock });
    for (let i = 0; i < 4; i++) await throttle.recordFailure(key("alice"));
    expect(await throttle.check(key("alice"))).toEqual({ allowed: true });
    await throttle.recordFailure(key("alice"));
    expect(await throttle.check(key("alice"))).toEqual({
      allowed: false,
      retryAfterMs: 15 * 60_000,
      scope: "account-ip",
    });
    for (let i = 0; i < 45; i++) await throttle.recordFailure(key(`user${i}`));
    expect(await throttle.check(key("someone"))).toMatchObject({ allowed: false, scope: "ip" });
    clock.advance(15 * 60_000);
    expect(await throttle.check(key("alice"))).toEqual({ allowed: true });
  });

  it("refuses limits that are not positive integers with CONFIGURATION_INVALID", () => {
    const clock = new ManualClock();
    for (const bad of [
      { maxFailuresPerAccountAndIp: 0 },
      { maxFailuresPerIp: 1.5 },
      { windowMs: -1 },
      { windowMs: Number.NaN },
      { maxEntries: 0 },
    ]) {
      let code = "accepted";
      try {
        new InMemoryLoginThrottle({ clock, ...bad });
      } catch (error) {
        code = isPlatformError(error) ? error.code : String(error);
      }
      expect(code, JSON.stringify(bad)).toBe("CONFIGURATION_INVALID");
    }
  });

  it("holds at most maxEntries counters, dropping the oldest window first", async () => {
    const clock = new ManualClock();
    const throttle = new InMemoryLoginThrottle({ clock, maxEntries: 4, maxFailuresPerAccountAndIp: 1 });
    await throttle.recordFailure(key("first", "192.0.2.1")); // two counters: pair and address
    clock.advance(1);
    await throttle.recordFailure(key("second", "192.0.2.2"));
    expect(throttle.size).toBe(4);
    clock.advance(1);
    await throttle.recordFailure(key("third", "192.0.2.3"));
    expect(throttle.size).toBe(4);
    expect(await throttle.check(key("first", "192.0.2.1"))).toEqual({ allowed: true });
    expect(await throttle.check(key("second", "192.0.2.2"))).toMatchObject({ allowed: false });
    expect(await throttle.check(key("third", "192.0.2.3"))).toMatchObject({ allowed: false });
  });

  it("sweeps ended windows on write, without timers", async () => {
    const clock = new ManualClock();
    const throttle = new InMemoryLoginThrottle({ clock, windowMs: 1_000 });
    for (let i = 0; i < 100; i++) await throttle.recordFailure(key(`u${i}`, `192.0.2.${i}`));
    expect(throttle.size).toBe(200);
    clock.advance(1_000);
    await throttle.recordFailure(key("late"));
    expect(throttle.size).toBe(2);
  });

  it("never asks to wait longer than one window when the clock goes backwards", async () => {
    const clock = new ManualClock(1_000_000);
    const throttle = new InMemoryLoginThrottle({ clock, maxFailuresPerAccountAndIp: 1, windowMs: 10_000 });
    await throttle.recordFailure(key("alice"));
    clock.set(500_000);
    expect(await throttle.check(key("alice"))).toEqual({
      allowed: false,
      retryAfterMs: 10_000,
      scope: "account-ip",
    });
  });

  it("keeps keys bounded whatever the username length", async () => {
    const clock = new ManualClock();
    const throttle = new InMemoryLoginThrottle({ clock, maxFailuresPerAccountAndIp: 1 });
    await throttle.recordFailure(key("x".repeat(1_000_000)));
    expect(await throttle.check(key("X".repeat(1_000_000)))).toMatchObject({ allowed: false });
    expect(await throttle.check(key("x".repeat(999_999)))).toEqual({ allowed: true });
  });
});
