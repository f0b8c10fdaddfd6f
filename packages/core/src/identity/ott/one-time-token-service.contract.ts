import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { OneTimeTokenService } from "./one-time-token-service.js";

/** What a contract run needs from an adapter: a fresh, empty service on the given clock, 5-minute TTL. */
export type OneTimeTokenServiceFactory = (
  clock: ManualClock,
) => Promise<OneTimeTokenService> | OneTimeTokenService;

const TTL = 5 * 60_000;

/**
 * The behaviour every OneTimeTokenService adapter must show: unguessable distinct values, binding to
 * the username, expiry after 5 minutes (the factory must configure the default TTL), single use with
 * atomic consumption under concurrency, and the sibling rule (a successful consume spends the account's
 * other live tokens).
 */
export function describeOneTimeTokenServiceContract(name: string, factory: OneTimeTokenServiceFactory): void {
  describe(`OneTimeTokenService contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock();
      return { clock, service: await factory(clock) };
    };

    it("generates distinct, URL-safe values bound to the username with a 5-minute expiry", async () => {
      const { clock, service } = await setup();
      const a = await service.generate({ username: "alice" });
      const b = await service.generate({ username: "alice" });
      expect(a.username).toBe("alice");
      expect(a.expiresAt).toBe(clock.now() + TTL);
      expect(a.getTokenValue()).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(b.getTokenValue()).not.toBe(a.getTokenValue());
    });

    it("does not show the value when the token is serialised", async () => {
      const { service } = await setup();
      const token = await service.generate({ username: "alice" });
      expect(JSON.stringify(token)).not.toContain(token.getTokenValue());
    });

    it("consumes a token once: the first consume returns it, the second nothing", async () => {
      const { service } = await setup();
      const token = await service.generate({ username: "alice" });
      const consumed = await service.consume({ tokenValue: token.getTokenValue() });
      expect(consumed?.username).toBe("alice");
      expect(consumed?.expiresAt).toBe(token.expiresAt);
      expect(await service.consume({ tokenValue: token.getTokenValue() })).toBeUndefined();
    });

    it("revokes every unspent token of one account (by username key) and no other's", async () => {
      const { service } = await setup();
      const a1 = await service.generate({ username: "Alice" });
      const a2 = await service.generate({ username: "alice" });
      const b = await service.generate({ username: "bob" });
      await service.revokeAllFor("ALICE");
      expect(await service.consume({ tokenValue: a1.getTokenValue() })).toBeUndefined();
      expect(await service.consume({ tokenValue: a2.getTokenValue() })).toBeUndefined();
      expect((await service.consume({ tokenValue: b.getTokenValue() }))?.username).toBe("bob");
      await service.revokeAllFor("nobody");
      const again = await service.generate({ username: "alice" });
      expect((await service.consume({ tokenValue: again.getTokenValue() }))?.username).toBe("alice");
    });

    it("gives a token to exactly one of many concurrent consumers", async () => {
      const { service } = await setup();
      const token = await service.generate({ username: "alice" });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => service.consume({ tokenValue: token.getTokenValue() })),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });

    it("refuses an expired token, even one never tried, and keeps it refused", async () => {
      const { clock, service } = await setup();
      const token = await service.generate({ username: "alice" });
      const fresh = await service.generate({ username: "bob" });
      clock.advance(TTL - 1);
      expect(await service.consume({ tokenValue: fresh.getTokenValue() })).toBeDefined();
      clock.advance(1);
      expect(await service.consume({ tokenValue: token.getTokenValue() })).toBeUndefined();
      clock.set(clock.now() - TTL);
      expect(await service.consume({ tokenValue: token.getTokenValue() })).toBeUndefined();
    });

    it("returns nothing for unknown, empty, altered and oversized values", async () => {
      const { service } = await setup();
      const token = await service.generate({ username: "alice" });
      const value = token.getTokenValue();
      const altered = `${value.slice(0, -1)}${value.endsWith("A") ? "B" : "A"}`;
      for (const tokenValue of ["", "nope", altered, value.toUpperCase(), `${value} `, "x".repeat(10_000)]) {
        if (tokenValue === value) continue;
        expect(await service.consume({ tokenValue }), tokenValue.slice(0, 50)).toBeUndefined();
      }
      expect(await service.consume({ tokenValue: value })).toBeDefined();
    });

    it("keeps the tokens of different users apart", async () => {
      const { service } = await setup();
      const alice = await service.generate({ username: "alice" });
      const bob = await service.generate({ username: "bob" });
      expect((await service.consume({ tokenValue: bob.getTokenValue() }))?.username).toBe("bob");
      expect((await service.consume({ tokenValue: alice.getTokenValue() }))?.username).toBe("alice");
    });

    it("keeps earlier live tokens valid when a new one is generated", async () => {
      const { service } = await setup();
      const first = await service.generate({ username: "alice" });
      await service.generate({ username: "alice" });
      expect(await service.consume({ tokenValue: first.getTokenValue() })).toBeDefined();
    });

    it("spends the account's other live tokens when one is consumed, not other accounts' tokens", async () => {
      const { service } = await setup();
      const first = await service.generate({ username: "alice" });
      const second = await service.generate({ username: "Alice" });
      const bob = await service.generate({ username: "bob" });
      expect(await service.consume({ tokenValue: second.getTokenValue() })).toBeDefined();
      expect(await service.consume({ tokenValue: first.getTokenValue() })).toBeUndefined();
      expect(await service.consume({ tokenValue: bob.getTokenValue() })).toBeDefined();
    });
  });
}
