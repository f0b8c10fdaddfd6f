import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { RevokedAccessTokenStore } from "./revoked-token-store.js";

/**
 * The behaviour every RevokedAccessTokenStore adapter must show. `factory` returns a fresh, empty
 * store that reads time from the given clock.
 */
export function describeRevokedAccessTokenStoreContract(
  name: string,
  factory: (context: { clock: ManualClock }) => Promise<RevokedAccessTokenStore> | RevokedAccessTokenStore,
): void {
  describe(`RevokedAccessTokenStore contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock();
      return { clock, store: await factory({ clock }) };
    };

    it("denies nothing at first", async () => {
      const { store } = await setup();
      expect(await store.isRevoked("jti-1")).toBe(false);
      expect(await store.isRevoked("")).toBe(false);
    });

    it("denies a revoked jti until its expiresAt, and only that jti", async () => {
      const { clock, store } = await setup();
      await store.revoke("jti-1", clock.now() + 1000);
      expect(await store.isRevoked("jti-1")).toBe(true);
      expect(await store.isRevoked("jti-2")).toBe(false);
      clock.advance(999);
      expect(await store.isRevoked("jti-1")).toBe(true);
      clock.advance(1);
      expect(await store.isRevoked("jti-1")).toBe(false);
    });

    it("keeps the later expiry when a jti is revoked twice", async () => {
      const { clock, store } = await setup();
      await store.revoke("jti-1", clock.now() + 5000);
      await store.revoke("jti-1", clock.now() + 1000);
      clock.advance(2000);
      expect(await store.isRevoked("jti-1")).toBe(true);
      await store.revoke("jti-1", clock.now() + 10_000);
      clock.advance(5000);
      expect(await store.isRevoked("jti-1")).toBe(true);
    });

    it("ignores an expiresAt that is already past", async () => {
      const { clock, store } = await setup();
      await store.revoke("jti-1", clock.now());
      await store.revoke("jti-2", clock.now() - 1000);
      expect(await store.isRevoked("jti-1")).toBe(false);
      expect(await store.isRevoked("jti-2")).toBe(false);
    });

    it("denies every token of a revoked family until its expiresAt, and no other family", async () => {
      const { clock, store } = await setup();
      await store.revokeFamily("family-1", clock.now() + 1000);
      expect(await store.isRevoked("jti-1", "family-1")).toBe(true);
      expect(await store.isRevoked("jti-2", "family-1")).toBe(true);
      expect(await store.isRevoked("jti-1", "family-2")).toBe(false);
      expect(await store.isRevoked("jti-1")).toBe(false);
      clock.advance(999);
      expect(await store.isRevoked("jti-3", "family-1")).toBe(true);
      clock.advance(1);
      expect(await store.isRevoked("jti-3", "family-1")).toBe(false);
    });

    it("answers true when either the jti or the family is denied", async () => {
      const { clock, store } = await setup();
      await store.revoke("jti-1", clock.now() + 1000);
      expect(await store.isRevoked("jti-1", "family-1")).toBe(true);
      expect(await store.isRevoked("jti-2", "family-1")).toBe(false);
    });

    it("keeps token ids and family ids apart, however they are spelled", async () => {
      const { clock, store } = await setup();
      await store.revoke("same", clock.now() + 1000);
      await store.revokeFamily("other", clock.now() + 1000);
      expect(await store.isRevoked("x", "same")).toBe(false);
      expect(await store.isRevoked("other")).toBe(false);
      expect(await store.isRevoked("other", "y")).toBe(false);
    });

    it("keeps a family's later expiry and ignores a past one", async () => {
      const { clock, store } = await setup();
      await store.revokeFamily("family-1", clock.now() + 5000);
      await store.revokeFamily("family-1", clock.now() + 1000);
      await store.revokeFamily("family-2", clock.now());
      clock.advance(2000);
      expect(await store.isRevoked("jti", "family-1")).toBe(true);
      expect(await store.isRevoked("jti", "family-2")).toBe(false);
    });

    it("handles concurrent revocations of many ids", async () => {
      const { clock, store } = await setup();
      const ids = Array.from({ length: 50 }, (_, i) => `jti-${i}`);
      await Promise.all(ids.map((id) => store.revoke(id, clock.now() + 1000)));
      expect(await Promise.all(ids.map((id) => store.isRevoked(id)))).toEqual(ids.map(() => true));
    });
  });
}
