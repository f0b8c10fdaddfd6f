import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { InMemoryOttGenerationLimiter } from "./in-memory-ott-generation-limiter.js";
import { describeOttGenerationLimiterContract } from "./ott-generation-limiter.contract.js";

describeOttGenerationLimiterContract(
  "InMemoryOttGenerationLimiter",
  (clock, limits) => new InMemoryOttGenerationLimiter({ clock, ...limits }),
);

const WINDOW = 15 * 60_000;
const key = (username: string, remoteAddress = "203.0.113.1") => ({ username, remoteAddress });

describe("InMemoryOttGenerationLimiter", () => {
  it("allows 3 per username across addresses per 15 minutes, then says how long to wait", async () => {
    const clock = new ManualClock();
    const limiter = new InMemoryOttGenerationLimiter({ clock });
    for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
      expect(await limiter.acquire(key("alice", ip))).toEqual({ allowed: true });
    }
    clock.advance(60_000);
    expect(await limiter.acquire(key(" ALICE ", "192.0.2.4"))).toEqual({
      allowed: false,
      retryAfterMs: WINDOW - 60_000,
      scope: "user",
    });
    expect(await limiter.acquire(key("bob", "192.0.2.4"))).toEqual({ allowed: true });
    clock.advance(WINDOW - 60_000);
    expect(await limiter.acquire(key("alice", "192.0.2.4"))).toEqual({ allowed: true });
  });

  it("allows 20 per address (IPv6 by /64) across usernames, then refuses with scope ip", async () => {
    const clock = new ManualClock();
    const limiter = new InMemoryOttGenerationLimiter({ clock });
    for (let i = 0; i < 20; i++) {
      expect(await limiter.acquire(key(`user${i}`, `2001:db8:0:1::${i + 1}`))).toEqual({ allowed: true });
    }
    expect(await limiter.acquire(key("other", "2001:db8:0:1::ffff"))).toEqual({
      allowed: false,
      retryAfterMs: WINDOW,
      scope: "ip",
    });
    expect(await limiter.acquire(key("other", "2001:db8:0:2::1"))).toEqual({ allowed: true });
    clock.advance(WINDOW);
    expect(await limiter.acquire(key("other", "2001:db8:0:1::1"))).toEqual({ allowed: true });
  });

  it("does not count refused requests, so hammering does not prolong a block", async () => {
    const clock = new ManualClock();
    const limiter = new InMemoryOttGenerationLimiter({ clock, maxPerUser: 1 });
    await limiter.acquire(key("alice"));
    for (let i = 0; i < 10; i++) {
      clock.advance(60_000);
      expect((await limiter.acquire(key("alice"))).allowed).toBe(false);
    }
    clock.advance(WINDOW - 10 * 60_000);
    expect((await limiter.acquire(key("alice"))).allowed).toBe(true);
  });

  it("counts only when both counters allow: a blocked address does not use up a username's budget", async () => {
    const clock = new ManualClock();
    const limiter = new InMemoryOttGenerationLimiter({ clock, maxPerIp: 1, maxPerUser: 2 });
    await limiter.acquire(key("x", "192.0.2.9"));
    for (let i = 0; i < 5; i++)
      expect((await limiter.acquire(key("alice", "192.0.2.9"))).allowed).toBe(false);
    expect((await limiter.acquire(key("alice", "192.0.2.10"))).allowed).toBe(true);
    expect((await limiter.acquire(key("alice", "192.0.2.11"))).allowed).toBe(true);
  });

  it("honours custom limits and bounds its memory", async () => {
    const clock = new ManualClock();
    const limiter = new InMemoryOttGenerationLimiter({
      clock,
      maxPerUser: 5,
      windowMs: 1_000,
      maxEntries: 4,
    });
    for (let i = 0; i < 5; i++) expect((await limiter.acquire(key("alice"))).allowed).toBe(true);
    expect(await limiter.acquire(key("alice"))).toEqual({
      allowed: false,
      retryAfterMs: 1_000,
      scope: "user",
    });
    for (let i = 0; i < 10; i++) await limiter.acquire(key(`u${i}`, `192.0.2.${i}`));
    expect(limiter.size).toBeLessThanOrEqual(4);
    clock.advance(1_000);
    await limiter.acquire(key("z"));
    expect(limiter.size).toBe(2);
  });

  it("refuses limits that are not positive integers", () => {
    for (const bad of [{ maxPerUser: 0 }, { maxPerIp: -1 }, { windowMs: 1.5 }, { maxEntries: 0 }]) {
      let code = "accepted";
      try {
        new InMemoryOttGenerationLimiter({ clock: new ManualClock(), ...bad });
      } catch (error) {
        code = isPlatformError(error) ? error.code : String(error);
      }
      expect(code, JSON.stringify(bad)).toBe("CONFIGURATION_INVALID");
    }
  });
});
