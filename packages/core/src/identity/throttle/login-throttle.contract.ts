import { beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { LoginThrottle, LoginThrottleLimits, ThrottleKey } from "./login-throttle.js";

/** The small limits the contract runs with, so the address limit is reached in a few calls. */
export const CONTRACT_THROTTLE_LIMITS: Readonly<LoginThrottleLimits> = Object.freeze({
  maxFailuresPerAccountAndIp: 3,
  maxFailuresPerIp: 5,
  windowMs: 60_000,
});

/**
 * The behaviour every LoginThrottle adapter must show. `factory` returns a fresh, empty throttle that
 * reads time from `clock` and applies `limits` (CONTRACT_THROTTLE_LIMITS). The in-memory adapter always
 * runs it; the MongoDB one when `MONGODB_URI` is set.
 */
export function describeLoginThrottleContract(
  name: string,
  factory: (clock: ManualClock, limits: LoginThrottleLimits) => Promise<LoginThrottle> | LoginThrottle,
): void {
  describe(`LoginThrottle contract: ${name}`, () => {
    const {
      maxFailuresPerAccountAndIp: perPair,
      maxFailuresPerIp: perIp,
      windowMs,
    } = CONTRACT_THROTTLE_LIMITS;
    const A = "203.0.113.10";
    const B = "198.51.100.20";
    const alice = (remoteAddress: string): ThrottleKey => ({ username: "alice", remoteAddress });
    let clock: ManualClock;
    let throttle: LoginThrottle;

    async function fail(key: ThrottleKey, times: number): Promise<void> {
      for (let i = 0; i < times; i++) await throttle.recordFailure(key);
    }

    beforeEach(async () => {
      clock = new ManualClock();
      throttle = await factory(clock, { ...CONTRACT_THROTTLE_LIMITS });
    });

    it("allows a key without failures, and check records nothing", async () => {
      for (let i = 0; i < perPair * 3; i++) expect(await throttle.check(alice(A))).toEqual({ allowed: true });
    });

    it("blocks an (account, address) pair at its limit, waiting out the rest of the window", async () => {
      await fail(alice(A), perPair - 1);
      expect(await throttle.check(alice(A))).toEqual({ allowed: true });
      await throttle.recordFailure(alice(A));
      clock.advance(10_000);
      expect(await throttle.check(alice(A))).toEqual({
        allowed: false,
        retryAfterMs: windowMs - 10_000,
        scope: "account-ip",
      });
    });

    it("still lets the same account in from another address", async () => {
      await fail(alice(A), perPair * 2);
      expect(await throttle.check(alice(B))).toEqual({ allowed: true });
    });

    it("still lets another account in from the blocked pair's address, below the address limit", async () => {
      await fail(alice(A), perPair);
      expect(await throttle.check({ username: "bob", remoteAddress: A })).toEqual({ allowed: true });
    });

    it("counts usernames by key: case, NFKC and surrounding spaces do not make new accounts", async () => {
      await throttle.recordFailure({ username: "Alice", remoteAddress: A });
      await throttle.recordFailure({ username: " alice ", remoteAddress: A });
      await throttle.recordFailure({ username: "ＡＬＩＣＥ", remoteAddress: A });
      expect(await throttle.check(alice(A))).toMatchObject({ allowed: false, scope: "account-ip" });
    });

    it("blocks an address at its limit across usernames (spraying), and only that address", async () => {
      for (let i = 0; i < perIp; i++)
        await throttle.recordFailure({ username: `user${i}`, remoteAddress: A });
      expect(await throttle.check({ username: "never-tried", remoteAddress: A })).toEqual({
        allowed: false,
        retryAfterMs: windowMs,
        scope: "ip",
      });
      expect(await throttle.check({ username: "never-tried", remoteAddress: B })).toEqual({ allowed: true });
    });

    it("clears everything when the window ends, and counts from zero again", async () => {
      await fail(alice(A), perPair);
      for (let i = 0; i < perIp; i++) await throttle.recordFailure({ username: `u${i}`, remoteAddress: B });
      clock.advance(windowMs - 1);
      expect(await throttle.check(alice(A))).toMatchObject({ allowed: false, retryAfterMs: 1 });
      clock.advance(1);
      expect(await throttle.check(alice(A))).toEqual({ allowed: true });
      expect(await throttle.check(alice(B))).toEqual({ allowed: true });
      await throttle.recordFailure(alice(A));
      expect(await throttle.check(alice(A))).toEqual({ allowed: true });
    });

    it("opens a window at the first failure: later failures do not extend it", async () => {
      await throttle.recordFailure(alice(A));
      clock.advance(30_000);
      await throttle.recordFailure(alice(A));
      clock.advance(29_000);
      await throttle.recordFailure(alice(A));
      expect(await throttle.check(alice(A))).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
      clock.advance(1_000);
      expect(await throttle.check(alice(A))).toEqual({ allowed: true });
    });

    it("clears the pair counter on success but keeps the address counter", async () => {
      await fail(alice(A), perPair);
      await throttle.recordSuccess({ username: "ALICE", remoteAddress: A });
      expect(await throttle.check(alice(A))).toEqual({ allowed: true });
      // perPair failures already count against A; the rest of the address budget still applies.
      await fail({ username: "mallory", remoteAddress: A }, perIp - perPair);
      expect(await throttle.check(alice(A))).toMatchObject({ allowed: false, scope: "ip" });
    });

    it("clears an account's pair counters from every address on clearAccount, keeping address counters", async () => {
      await fail(alice(A), perPair);
      await fail(alice(B), perPair);
      await fail({ username: "bob", remoteAddress: A }, 1);
      await throttle.clearAccount(" ALICE ");
      expect(await throttle.check(alice(A))).toEqual({ allowed: true });
      expect(await throttle.check(alice(B))).toEqual({ allowed: true });
      // A's address counter still holds alice's and bob's failures.
      await fail({ username: "mallory", remoteAddress: A }, perIp - perPair - 1);
      expect(await throttle.check({ username: "carol", remoteAddress: A })).toMatchObject({
        allowed: false,
        scope: "ip",
      });
      await throttle.clearAccount("nobody");
    });

    it("accepts a success for a key without failures", async () => {
      await throttle.recordSuccess(alice(A));
      expect(await throttle.check(alice(A))).toEqual({ allowed: true });
    });

    it("reports the later of two blocks", async () => {
      await fail({ username: "carol", remoteAddress: A }, 2);
      clock.advance(10_000);
      await fail(alice(A), perPair); // the address is now at its limit too, its window opened 10 s earlier
      expect(await throttle.check(alice(A))).toEqual({
        allowed: false,
        retryAfterMs: windowMs,
        scope: "account-ip",
      });
      expect(await throttle.check({ username: "bob", remoteAddress: A })).toEqual({
        allowed: false,
        retryAfterMs: windowMs - 10_000,
        scope: "ip",
      });
    });

    it("counts every one of concurrent failures", async () => {
      await Promise.all(Array.from({ length: perPair }, () => throttle.recordFailure(alice(A))));
      expect(await throttle.check(alice(A))).toMatchObject({ allowed: false, scope: "account-ip" });
    });

    it("counts an IPv6 /64 as one address and an IPv4-mapped address as its IPv4 address", async () => {
      await throttle.recordFailure({ username: "alice", remoteAddress: "2001:db8:1:2::1" });
      await throttle.recordFailure({ username: "alice", remoteAddress: "2001:db8:1:2:ffff:ffff:ffff:ffff" });
      await throttle.recordFailure({ username: "alice", remoteAddress: "[2001:DB8:1:2::abcd]" });
      expect(await throttle.check({ username: "alice", remoteAddress: "2001:db8:1:2::9" })).toMatchObject({
        allowed: false,
      });
      expect(await throttle.check({ username: "alice", remoteAddress: "2001:db8:1:3::1" })).toEqual({
        allowed: true,
      });
      await fail({ username: "bob", remoteAddress: "::ffff:192.0.2.1" }, perPair);
      expect(await throttle.check({ username: "bob", remoteAddress: "192.0.2.1" })).toMatchObject({
        allowed: false,
      });
    });
  });
}
