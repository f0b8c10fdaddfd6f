import { describe, expect, it } from "vitest";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyStore } from "../../kernel/keys/key-store.js";
import { createPlatform } from "../../kernel/platform.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { KeyRingAdmin } from "./key-ring-admin.js";
import { JWT_SIGNING_KEY_PURPOSE, StoredJwtKeys } from "./stored-jwt-keys.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";

const MINUTE = 60_000;
const PURPOSES = [JWT_SIGNING_KEY_PURPOSE, "mfa.device-cookie"];

/** A platform of the kernel alone on one in-memory store, as `platform keys` builds on a real one. */
function platformOn(store: InMemoryKeyStore, clock: ManualClock, kek: string, ttl = "PT15M") {
  return createPlatform({
    env: {},
    plugins: [{ id: "keys-test", properties: KeyRingAdmin.properties }],
    properties: { "platform.keys.encryption-key": kek, "platform.auth.jwt.access-token-ttl": ttl },
    register: (c) => {
      c.registerInstance(KeyStore, store);
      c.registerInstance(Clock, clock);
    },
  });
}

describe("KeyRingAdmin", () => {
  const kek = "an-operator-key-encryption-key-of-32+bytes";

  async function seeded() {
    const clock = new ManualClock();
    const store = new InMemoryKeyStore();
    const platform = platformOn(store, clock, kek);
    const ring = platform.resolve(KeyRing);
    const jwt = await StoredJwtKeys.open({
      ring,
      algorithm: "EdDSA",
      now: () => clock.now(),
      rotationMs: 0,
      tokenLifetimeMs: MINUTE,
    });
    await ring.active("mfa.device-cookie", () => ({
      kid: "dc1",
      algorithm: "HMAC-SHA256",
      secret: new Uint8Array(32),
    }));
    return { clock, store, platform, jwt };
  }

  it("lists each purpose's keys with age and state, never their material", async () => {
    const { clock, platform, jwt } = await seeded();
    clock.advance(3 * MINUTE);
    const rows = await KeyRingAdmin.of(platform.container).list(PURPOSES);
    expect(rows).toEqual([
      {
        purpose: "jwt.signing",
        kid: jwt.kid,
        algorithm: "EdDSA",
        state: "active",
        createdAt: expect.any(Number),
        ageMs: 3 * MINUTE,
      },
      {
        purpose: "mfa.device-cookie",
        kid: "dc1",
        algorithm: "HMAC-SHA256",
        state: "active",
        createdAt: expect.any(Number),
        ageMs: 3 * MINUTE,
      },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/secret|material|"d"/);
  });

  it("rotates a JWT key to the same algorithm, keeping the old one for the token lifetime plus skew and reload", async () => {
    const { clock, platform, jwt } = await seeded();
    const admin = KeyRingAdmin.of(platform.container);
    const done = await admin.rotate("jwt.signing");
    expect(done).toMatchObject({ purpose: "jwt.signing", retiredKid: jwt.kid, algorithm: "EdDSA" });
    expect(done.verifyUntil).toBe(clock.now() + 15 * MINUTE + 30_000 + MINUTE);
    const rows = await admin.list(["jwt.signing"]);
    expect(rows.map((r) => [r.kid, r.state])).toEqual([
      [done.kid, "active"],
      [jwt.kid, "retired"],
    ]);
    // A running instance signs with the new key after its next read of the ring.
    clock.advance(MINUTE);
    await jwt.beforeSign();
    expect(jwt.kid).toBe(done.kid);
  });

  it("rotates an HMAC key at once (nothing verifies with a retired one)", async () => {
    const { platform } = await seeded();
    const admin = KeyRingAdmin.of(platform.container);
    const done = await admin.rotate("mfa.device-cookie");
    expect(done.retiredKid).toBe("dc1");
    expect((await admin.list(["mfa.device-cookie"])).map((r) => r.kid)).toEqual([done.kid]);
  });

  it("refuses a wrong key-encryption key before any change, and a purpose without a key", async () => {
    const { clock, store } = await seeded();
    const wrong = KeyRingAdmin.of(
      platformOn(store, clock, "not-the-key-encryption-key-of-this-ring").container,
    );
    expect(await codeOf(wrong.list(PURPOSES))).toBe("CONFIGURATION_INVALID");
    expect(await codeOf(wrong.rotate("jwt.signing"))).toBe("CONFIGURATION_INVALID");
    const right = KeyRingAdmin.of(platformOn(store, clock, kek).container);
    expect((await right.list(["jwt.signing"])).filter((r) => r.state === "retired")).toEqual([]);
    expect(await codeOf(right.rotate("mfa.code"))).toBe("NOT_FOUND");
  });
});
