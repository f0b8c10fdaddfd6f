import { describe, expect, it } from "vitest";
import { ManualClock } from "../clock.js";
import { isPlatformError } from "../platform-error.js";
import { InMemoryKeyStore } from "./in-memory-key-store.js";
import { KeyRing, keySealerFor, type NewKey } from "./key-ring.js";
import type { KeyStore } from "./key-store.js";

const T0 = Date.UTC(2026, 0, 1);

/** The in-memory store, said to be durable (as a database adapter is). */
class DurableInMemoryKeyStore extends InMemoryKeyStore {
  override readonly durable = true as unknown as false;
}

function ringOn(store: KeyStore, kek = `base64url:${Buffer.alloc(32, 9).toString("base64url")}`) {
  const clock = new ManualClock(T0);
  return { clock, ring: new KeyRing({ store, sealer: keySealerFor(store, kek), now: () => clock.now() }) };
}

function newKey(kid: string, fill = 1): NewKey {
  return { kid, algorithm: "HMAC-SHA256", secret: new Uint8Array(32).fill(fill) };
}

describe("KeyRing", () => {
  it("makes the first key once and opens it again for every later caller", async () => {
    const store = new InMemoryKeyStore();
    const { ring } = ringOn(store);
    let made = 0;
    const make = () => {
      made++;
      return newKey("a", 5);
    };
    const first = await ring.active("mfa.device-cookie", make);
    const again = await ring.active("mfa.device-cookie", make);
    expect(made).toBe(1);
    expect(first.secret).toEqual(new Uint8Array(32).fill(5));
    expect(again).toMatchObject({ kid: "a", createdAt: T0 });
    expect(again.secret).toEqual(first.secret);
  });

  it("gives two instances on one store the same key (the first writer wins)", async () => {
    const store = new InMemoryKeyStore();
    const kek = "k".repeat(32);
    const a = ringOn(store, kek).ring;
    const b = ringOn(store, kek).ring;
    const [ka, kb] = await Promise.all([
      a.active("mfa.device-cookie", () => newKey("from-a", 1)),
      b.active("mfa.device-cookie", () => newKey("from-b", 2)),
    ]);
    expect(ka.kid).toBe(kb.kid);
    expect(ka.secret).toEqual(kb.secret);
  });

  it("hands the store only sealed material", async () => {
    const store = new InMemoryKeyStore();
    const { ring } = ringOn(store);
    await ring.active("p", () => newKey("a", 0x41));
    const [stored] = await store.keys("p", T0);
    expect(stored!.material).toMatch(/^v1\./);
    expect(stored!.material).not.toContain(Buffer.alloc(8, 0x41).toString("base64url"));
  });

  it("rotates: the new key is active, the old one is listed until verifyUntil", async () => {
    const { ring, clock } = ringOn(new InMemoryKeyStore());
    await ring.active("p", () => newKey("a"));
    expect(await ring.rotate("p", "a", () => newKey("b", 2), T0 + 1000)).toBe(true);
    expect((await ring.keys("p")).map((k) => k.kid)).toEqual(["b", "a"]);
    expect(await ring.rotate("p", "a", () => newKey("c", 3), T0 + 1000)).toBe(false);
    clock.advance(1000);
    expect((await ring.keys("p")).map((k) => k.kid)).toEqual(["b"]);
  });

  it("refuses to open keys under another key-encryption key (a changed property)", async () => {
    const store = new InMemoryKeyStore();
    await ringOn(store, "k".repeat(32)).ring.active("p", () => newKey("a"));
    const error = await ringOn(store, "z".repeat(32))
      .ring.keys("p")
      .catch((e: unknown) => e);
    expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
    expect((error as Error).message).toContain("platform.keys.encryption-key");
  });
});

describe("keySealerFor", () => {
  it("insists on a configured key-encryption key for a durable store", () => {
    let error: unknown;
    try {
      keySealerFor(new DurableInMemoryKeyStore(), "  ");
    } catch (e) {
      error = e;
    }
    expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
    expect((error as Error).message).toContain("platform.keys.encryption-key");
  });

  it("uses a random key for a process-local store, and refuses a short or malformed configured one", () => {
    expect(() => keySealerFor(new InMemoryKeyStore(), "")).not.toThrow();
    for (const bad of ["short", "base64url:***", `base64url:${Buffer.alloc(31).toString("base64url")}`]) {
      let error: unknown;
      try {
        keySealerFor(new InMemoryKeyStore(), bad);
      } catch (e) {
        error = e;
      }
      expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
      expect((error as Error).message).not.toContain(bad.slice(10) || "short-never");
    }
  });
});
