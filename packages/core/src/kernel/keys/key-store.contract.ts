import { describe, expect, it } from "vitest";
import type { KeyStore, StoredKey } from "./key-store.js";

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

function key(kid: string, overrides: Partial<StoredKey> = {}): StoredKey {
  return {
    purpose: "jwt.signing",
    kid,
    algorithm: "ES256",
    material: `sealed:${kid}`,
    publicJwk: { kty: "EC", crv: "P-256", x: `x-${kid}`, y: `y-${kid}` },
    createdAt: T0,
    ...overrides,
  };
}

/**
 * The behaviour every KeyStore adapter must show. `factory` returns a fresh, empty store. The races
 * between instances are run as concurrent calls: exactly one writer may win each.
 */
export function describeKeyStoreContract(name: string, factory: () => Promise<KeyStore> | KeyStore): void {
  describe(`KeyStore contract: ${name}`, () => {
    it("has no keys at first", async () => {
      const store = await factory();
      expect(await store.keys("jwt.signing", T0)).toEqual([]);
    });

    it("stores the first candidate as the active key, material and public key exactly as given", async () => {
      const store = await factory();
      const stored = await store.activeOrCreate(key("a"));
      expect(stored).toMatchObject({ kid: "a", material: "sealed:a", algorithm: "ES256", createdAt: T0 });
      expect(stored.retiredAt).toBeUndefined();
      const [only, ...rest] = await store.keys("jwt.signing", T0);
      expect(rest).toEqual([]);
      expect(only).toMatchObject({ kid: "a", material: "sealed:a", publicJwk: key("a").publicJwk });
    });

    it("keeps the first active key: a later candidate gets it back and is not stored", async () => {
      const store = await factory();
      await store.activeOrCreate(key("a"));
      expect((await store.activeOrCreate(key("b"))).kid).toBe("a");
      expect((await store.keys("jwt.signing", T0)).map((k) => k.kid)).toEqual(["a"]);
    });

    it("decides concurrent first keys with one winner that every caller gets", async () => {
      const store = await factory();
      const winners = await Promise.all(
        ["k1", "k2", "k3", "k4", "k5", "k6"].map((kid) => store.activeOrCreate(key(kid))),
      );
      expect(new Set(winners.map((w) => w.kid)).size).toBe(1);
      expect(await store.keys("jwt.signing", T0)).toHaveLength(1);
    });

    it("rotates: the new key is active and listed first, the old one is kept until verifyUntil", async () => {
      const store = await factory();
      await store.activeOrCreate(key("a"));
      const rotated = await store.rotate("jwt.signing", "a", key("b", { createdAt: T0 + HOUR }), {
        at: T0 + HOUR,
        verifyUntil: T0 + 2 * HOUR,
      });
      expect(rotated).toBe(true);
      const ring = await store.keys("jwt.signing", T0 + HOUR);
      expect(ring.map((k) => k.kid)).toEqual(["b", "a"]);
      expect(ring[0]!.retiredAt).toBeUndefined();
      expect(ring[1]).toMatchObject({ retiredAt: T0 + HOUR, verifyUntil: T0 + 2 * HOUR });
      expect((await store.keys("jwt.signing", T0 + 2 * HOUR)).map((k) => k.kid)).toEqual(["b"]);
      expect((await store.activeOrCreate(key("c"))).kid).toBe("b");
    });

    it("lists retired keys newest first", async () => {
      const store = await factory();
      await store.activeOrCreate(key("a"));
      await store.rotate("jwt.signing", "a", key("b"), { at: T0 + 1, verifyUntil: T0 + 10 * HOUR });
      await store.rotate("jwt.signing", "b", key("c"), { at: T0 + 2, verifyUntil: T0 + 10 * HOUR });
      expect((await store.keys("jwt.signing", T0 + 3)).map((k) => k.kid)).toEqual(["c", "b", "a"]);
    });

    it("refuses a rotation from a key that is no longer active, changing nothing", async () => {
      const store = await factory();
      await store.activeOrCreate(key("a"));
      await store.rotate("jwt.signing", "a", key("b"), { at: T0, verifyUntil: T0 + HOUR });
      expect(await store.rotate("jwt.signing", "a", key("c"), { at: T0, verifyUntil: T0 + HOUR })).toBe(
        false,
      );
      expect(await store.rotate("jwt.signing", "zzz", key("d"), { at: T0, verifyUntil: T0 + HOUR })).toBe(
        false,
      );
      expect((await store.keys("jwt.signing", T0)).map((k) => k.kid)).toEqual(["b", "a"]);
    });

    it("decides concurrent rotations from one key with exactly one winner", async () => {
      const store = await factory();
      await store.activeOrCreate(key("a"));
      const results = await Promise.all(
        ["n1", "n2", "n3", "n4"].map((kid) =>
          store.rotate("jwt.signing", "a", key(kid), { at: T0, verifyUntil: T0 + HOUR }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const ring = await store.keys("jwt.signing", T0);
      expect(ring.filter((k) => k.retiredAt === undefined)).toHaveLength(1);
      expect(ring.map((k) => k.kid)).toEqual([ring[0]!.kid, "a"]);
    });

    it("keeps purposes apart", async () => {
      const store = await factory();
      await store.activeOrCreate(key("a"));
      const secret = await store.activeOrCreate(
        key("s", { purpose: "mfa.device-cookie", algorithm: "HMAC-SHA256", publicJwk: undefined }),
      );
      expect(secret.kid).toBe("s");
      expect((await store.keys("mfa.device-cookie", T0)).map((k) => k.kid)).toEqual(["s"]);
      expect((await store.keys("jwt.signing", T0)).map((k) => k.kid)).toEqual(["a"]);
      expect(await store.rotate("mfa.device-cookie", "a", key("x"), { at: T0, verifyUntil: T0 })).toBe(false);
    });

    it("hands out copies: changing what it returned changes nothing stored", async () => {
      const store = await factory();
      const stored = (await store.activeOrCreate(key("a"))) as { material: string };
      stored.material = "changed";
      const [listed] = (await store.keys("jwt.signing", T0)) as { material: string }[];
      listed!.material = "changed again";
      expect((await store.keys("jwt.signing", T0))[0]!.material).toBe("sealed:a");
    });
  });
}
