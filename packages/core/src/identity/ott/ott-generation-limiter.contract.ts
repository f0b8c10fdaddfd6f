import { beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type {
  OttGenerationKey,
  OttGenerationLimiter,
  OttGenerationLimits,
  OttGenerationVerdict,
} from "./ott-generation-limiter.js";

/** The small limits the contract runs with, so both counters are reached in a few calls. */
export const CONTRACT_OTT_GENERATION_LIMITS: Readonly<OttGenerationLimits> = Object.freeze({
  maxPerUser: 3,
  maxPerIp: 5,
  windowMs: 60_000,
});

/**
 * The behaviour every OttGenerationLimiter adapter must show. `factory` returns a fresh, empty limiter
 * that reads time from `clock` and applies `limits` (CONTRACT_OTT_GENERATION_LIMITS). The in-memory
 * adapter always runs it; a database one when it can reach its server.
 */
export function describeOttGenerationLimiterContract(
  name: string,
  factory: (
    clock: ManualClock,
    limits: OttGenerationLimits,
  ) => Promise<OttGenerationLimiter> | OttGenerationLimiter,
): void {
  describe(`OttGenerationLimiter contract: ${name}`, () => {
    const { maxPerUser, maxPerIp, windowMs } = CONTRACT_OTT_GENERATION_LIMITS;
    const A = "203.0.113.10";
    const B = "198.51.100.20";
    const key = (username: string, remoteAddress = A): OttGenerationKey => ({ username, remoteAddress });
    const allowed: OttGenerationVerdict = { allowed: true };
    let clock: ManualClock;
    let limiter: OttGenerationLimiter;

    /** `times` requests for `username`, each from its own address, so only the user counter fills. */
    async function spendUser(username: string, times: number): Promise<void> {
      for (let i = 0; i < times; i++)
        expect(await limiter.acquire(key(username, `192.0.2.${i + 1}`))).toEqual(allowed);
    }

    beforeEach(async () => {
      clock = new ManualClock();
      limiter = await factory(clock, { ...CONTRACT_OTT_GENERATION_LIMITS });
    });

    it("allows maxPerUser requests for a username across addresses, then says how long to wait", async () => {
      await spendUser("alice", maxPerUser);
      clock.advance(10_000);
      expect(await limiter.acquire(key("alice", B))).toEqual({
        allowed: false,
        retryAfterMs: windowMs - 10_000,
        scope: "user",
      });
      expect(await limiter.acquire(key("bob", B))).toEqual(allowed);
    });

    it("counts usernames by key: case, NFKC and surrounding spaces do not make new accounts", async () => {
      for (const [i, username] of ["Alice", " alice ", "ＡＬＩＣＥ"].entries()) {
        expect(await limiter.acquire(key(username, `192.0.2.${i + 1}`))).toEqual(allowed);
      }
      expect(await limiter.acquire(key("alice", B))).toMatchObject({ allowed: false, scope: "user" });
    });

    it("allows maxPerIp requests from one address across usernames, then refuses that address only", async () => {
      for (let i = 0; i < maxPerIp; i++) expect(await limiter.acquire(key(`user${i}`))).toEqual(allowed);
      expect(await limiter.acquire(key("never-tried"))).toEqual({
        allowed: false,
        retryAfterMs: windowMs,
        scope: "ip",
      });
      expect(await limiter.acquire(key("never-tried", B))).toEqual(allowed);
    });

    it("counts an IPv6 /64 as one address and an IPv4-mapped address as its IPv4 address", async () => {
      for (let i = 0; i < maxPerIp; i++) {
        expect(await limiter.acquire(key(`v6-${i}`, `2001:db8:1:2::${i + 1}`))).toEqual(allowed);
      }
      expect(await limiter.acquire(key("x", "[2001:DB8:1:2::abcd]"))).toMatchObject({ scope: "ip" });
      expect(await limiter.acquire(key("x", "2001:db8:1:3::1"))).toEqual(allowed);
      for (let i = 0; i < maxPerIp; i++)
        expect(await limiter.acquire(key(`v4-${i}`, "::ffff:192.0.2.99"))).toEqual(allowed);
      expect(await limiter.acquire(key("y", "192.0.2.99"))).toMatchObject({ allowed: false, scope: "ip" });
    });

    it("ends the window exactly windowMs after the first request, then counts from zero again", async () => {
      await spendUser("alice", maxPerUser);
      clock.advance(windowMs - 1);
      expect(await limiter.acquire(key("alice", B))).toEqual({
        allowed: false,
        retryAfterMs: 1,
        scope: "user",
      });
      clock.advance(1);
      await spendUser("alice", maxPerUser);
      expect(await limiter.acquire(key("alice", B))).toMatchObject({ allowed: false, scope: "user" });
    });

    it("opens a window at the first request: later requests do not extend it", async () => {
      expect(await limiter.acquire(key("alice", "192.0.2.1"))).toEqual(allowed);
      clock.advance(30_000);
      expect(await limiter.acquire(key("alice", "192.0.2.2"))).toEqual(allowed);
      clock.advance(29_000);
      expect(await limiter.acquire(key("alice", "192.0.2.3"))).toEqual(allowed);
      expect(await limiter.acquire(key("alice", B))).toEqual({
        allowed: false,
        retryAfterMs: 1_000,
        scope: "user",
      });
      clock.advance(1_000);
      expect(await limiter.acquire(key("alice", B))).toEqual(allowed);
    });

    it("does not count refused requests, so hammering does not prolong a block", async () => {
      await spendUser("alice", maxPerUser);
      for (let i = 0; i < 10; i++) {
        clock.advance(5_000);
        expect(await limiter.acquire(key("alice", B))).toMatchObject({ allowed: false, scope: "user" });
      }
      clock.advance(windowMs - 50_000);
      await spendUser("alice", maxPerUser);
    });

    it("counts only when both counters allow: a blocked address does not use up a username's budget", async () => {
      for (let i = 0; i < maxPerIp; i++) await limiter.acquire(key(`user${i}`));
      for (let i = 0; i < maxPerUser * 2; i++) {
        expect(await limiter.acquire(key("alice"))).toMatchObject({ allowed: false, scope: "ip" });
      }
      await spendUser("alice", maxPerUser);
    });

    it("reports the later of two blocks", async () => {
      await limiter.acquire(key("carol"));
      await limiter.acquire(key("dave"));
      clock.advance(10_000);
      for (let i = 0; i < maxPerUser; i++) expect(await limiter.acquire(key("alice"))).toEqual(allowed);
      // A is now at its address limit too, its window opened 10 s before alice's.
      expect(await limiter.acquire(key("alice"))).toEqual({
        allowed: false,
        retryAfterMs: windowMs,
        scope: "user",
      });
      expect(await limiter.acquire(key("bob"))).toEqual({
        allowed: false,
        retryAfterMs: windowMs - 10_000,
        scope: "ip",
      });
    });

    it("counts every one of N concurrent requests and allows exactly the limit", async () => {
      const forUser = await Promise.all(
        Array.from({ length: maxPerUser * 3 }, (_, i) => limiter.acquire(key("alice", `192.0.2.${i + 1}`))),
      );
      expect(forUser.filter((v) => v.allowed)).toHaveLength(maxPerUser);
      const fromIp = await Promise.all(
        Array.from({ length: maxPerIp * 3 }, (_, i) => limiter.acquire(key(`user${i}`, B))),
      );
      expect(fromIp.filter((v) => v.allowed)).toHaveLength(maxPerIp);
      expect(await limiter.acquire(key("alice", "198.51.100.99"))).toMatchObject({ scope: "user" });
      expect(await limiter.acquire(key("someone", B))).toMatchObject({ scope: "ip" });
    });
  });
}
