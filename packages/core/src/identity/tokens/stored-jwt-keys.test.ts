import { decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing, keySealerFor } from "../../kernel/keys/key-ring.js";
import type { KeyStore, StoredKey } from "../../kernel/keys/key-store.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { ConfiguredJwtKeySource } from "./configured-jwt-key-source.js";
import type { JwtAlgorithm } from "./jwt-keys.js";
import { JWT_SIGNING_KEY_PURPOSE, StoredJwtKeys } from "./stored-jwt-keys.js";
import { createTokenServiceFixture, RecordingLogger } from "./token-service.test-support.js";

const KEK = "k".repeat(32);
const HOUR = 3_600_000;
const TTL = 15 * 60_000 + 30_000;

/** The in-memory store counting its reads (a decorator over the real adapter, not a mock). */
class CountingKeyStore implements KeyStore {
  reads = 0;
  constructor(private readonly inner: KeyStore = new InMemoryKeyStore()) {}
  get durable() {
    return this.inner.durable;
  }
  keys(purpose: string, now: number) {
    this.reads++;
    return this.inner.keys(purpose, now);
  }
  activeOrCreate(candidate: StoredKey) {
    return this.inner.activeOrCreate(candidate);
  }
  rotate(purpose: string, kid: string, next: StoredKey, retire: { at: number; verifyUntil: number }) {
    return this.inner.rotate(purpose, kid, next, retire);
  }
}

async function instance(
  store: KeyStore,
  clock: ManualClock,
  rotationMs = 0,
  algorithm: JwtAlgorithm = "ES256",
) {
  const ring = new KeyRing({ store, sealer: keySealerFor(store, KEK), now: () => clock.now() });
  const keys = await StoredJwtKeys.open({
    ring,
    algorithm,
    now: () => clock.now(),
    rotationMs,
    tokenLifetimeMs: TTL,
  });
  return await createTokenServiceFixture({ keys, clock });
}

describe("StoredJwtKeys", () => {
  it.each<JwtAlgorithm>(["ES256", "EdDSA", "HS256"])(
    "%s: two instances on one store sign with one key and accept each other's tokens",
    async (algorithm) => {
      const store = new InMemoryKeyStore();
      const clock = new ManualClock();
      const a = await instance(store, clock, 0, algorithm);
      const b = await instance(store, clock, 0, algorithm);
      expect(a.keys.kid).toBe(b.keys.kid);
      const pair = await a.service.issue(a.alice);
      expect((await b.service.authenticate(pair.accessToken)).username).toBe("alice");
      expect(decodeProtectedHeader(pair.accessToken)).toMatchObject({ alg: algorithm, kid: a.keys.kid });
    },
  );

  it("rotates when the key is old enough, and keeps accepting the old key's tokens until they expire", async () => {
    const store = new InMemoryKeyStore();
    const clock = new ManualClock();
    const a = await instance(store, clock, HOUR);
    const first = await a.service.issue(a.alice);
    const oldKid = a.keys.kid;
    clock.advance(HOUR - 60_000);
    const second = await a.service.issue({ ...a.alice, authenticatedAt: clock.now() });
    clock.advance(60_000);
    const third = await a.service.issue({ ...a.alice, authenticatedAt: clock.now() });
    expect(decodeProtectedHeader(second.accessToken).kid).toBe(oldKid);
    expect(decodeProtectedHeader(third.accessToken).kid).not.toBe(oldKid);
    expect((await a.service.authenticate(second.accessToken)).username).toBe("alice");
    expect((await a.service.authenticate(third.accessToken)).username).toBe("alice");
    const ring = await new KeyRing({ store, sealer: keySealerFor(store, KEK), now: () => clock.now() }).keys(
      JWT_SIGNING_KEY_PURPOSE,
    );
    expect(ring.map((k) => k.kid)).toEqual([a.keys.kid, oldKid]);
    expect(ring[1]!.verifyUntil).toBe(clock.now() + TTL + 60_000);
    expect(first.accessToken).not.toBe(second.accessToken);
  });

  it("lets another instance verify a rotated-in key at once and sign with it within a minute", async () => {
    const store = new InMemoryKeyStore();
    const clock = new ManualClock();
    const a = await instance(store, clock, HOUR);
    const b = await instance(store, clock, 0);
    clock.advance(HOUR);
    const rotated = await a.service.issue({ ...a.alice, authenticatedAt: clock.now() });
    expect(a.keys.kid).not.toBe(b.keys.kid);
    expect((await b.service.authenticate(rotated.accessToken)).username).toBe("alice");
    clock.advance(60_000);
    const fromB = await b.service.issue({ ...b.alice, authenticatedAt: clock.now() });
    expect(decodeProtectedHeader(fromB.accessToken).kid).toBe(a.keys.kid);
  });

  it("reads the store at most once per five seconds for tokens naming unknown kids", async () => {
    const store = new CountingKeyStore();
    const clock = new ManualClock();
    const a = await instance(store, clock);
    const forged = async (kid: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
        .sign((await import("jose").then((j) => j.generateKeyPair("ES256"))).privateKey);
    clock.advance(5_000);
    const before = store.reads;
    for (let i = 0; i < 20; i++) {
      const error = await a.service.authenticate(await forged(`kid-${i}`)).catch((e: unknown) => e);
      expect(isPlatformError(error) && error.code).toBe("INVALID_TOKEN");
    }
    expect(store.reads - before).toBe(1);
  });

  it("retires a key of another algorithm at once when the pinned algorithm changes", async () => {
    const store = new InMemoryKeyStore();
    const clock = new ManualClock();
    const es = await instance(store, clock, 0, "ES256");
    const ed = await instance(store, clock, 0, "EdDSA");
    expect(ed.keys.kid).not.toBe(es.keys.kid);
    const pair = await ed.service.issue(ed.alice);
    expect(decodeProtectedHeader(pair.accessToken).alg).toBe("EdDSA");
    const ring = await new KeyRing({ store, sealer: keySealerFor(store, KEK), now: () => clock.now() }).keys(
      JWT_SIGNING_KEY_PURPOSE,
    );
    expect(ring.map((k) => k.algorithm)).toEqual(["EdDSA"]);
  });
});

describe("StoredJwtKeys against a tampered or outlived ring", () => {
  it("refuses a retired key's tokens once its verifyUntil has passed, without waiting for a reload", async () => {
    const store = new InMemoryKeyStore();
    const clock = new ManualClock();
    const a = await instance(store, clock, HOUR);
    const oldKid = a.keys.kid;
    const before = await a.service.issue(a.alice);
    clock.advance(HOUR);
    await a.service.issue({ ...a.alice, authenticatedAt: clock.now() });
    expect(a.keys.kid).not.toBe(oldKid);
    expect(
      (await a.service.authenticate(before.accessToken).catch((e: unknown) => e)) as object,
    ).toMatchObject({
      code: "TOKEN_EXPIRED",
    });
    // A token signed with the retired key, judged after verifyUntil (no reload in between).
    clock.advance(TTL + 60_000);
    const retired = (await store.keys(JWT_SIGNING_KEY_PURPOSE, 0)).find((k) => k.kid === oldKid)!;
    expect(retired.verifyUntil).toBeLessThanOrEqual(clock.now());
    expect(await a.keys.verificationKeyFor?.(oldKid)).toBeUndefined();
  });

  it("never takes the verification key from the stored public JWK (a store writer cannot swap it)", async () => {
    const inner = new InMemoryKeyStore();
    const clock = new ManualClock();
    await instance(inner, clock);
    const { publicKey } = await generateKeyPair("ES256", { extractable: true });
    const attackerJwk = await exportJWK(publicKey);
    const swapped: KeyStore = {
      durable: false,
      keys: async (purpose, now) =>
        (await inner.keys(purpose, now)).map((k) => ({ ...k, publicJwk: { ...attackerJwk } })),
      activeOrCreate: (c) => inner.activeOrCreate(c),
      rotate: (p, kid, next, retire) => inner.rotate(p, kid, next, retire),
    };
    const error = await instance(swapped, clock).catch((e: unknown) => e);
    expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
  });
});

describe("ConfiguredJwtKeySource with a key ring", () => {
  const ringOn = (store: KeyStore, clock: ManualClock) => ({
    ring: new KeyRing({ store, sealer: keySealerFor(store, KEK), now: () => clock.now() }),
    now: () => clock.now(),
    rotationMs: 0,
    tokenLifetimeMs: TTL,
  });

  it("keeps an unconfigured key in the ring, warning that a process-local store loses it at restart", async () => {
    const store = new InMemoryKeyStore();
    const clock = new ManualClock();
    const logger = new RecordingLogger();
    const one = await new ConfiguredJwtKeySource({ logger }, ringOn(store, clock)).load();
    const two = await new ConfiguredJwtKeySource({ logger }, ringOn(store, clock)).load();
    expect(one.kid).toBe(two.kid);
    expect(one.generated).toBe(true);
    expect(logger.lines.map((l) => l.level)).toEqual(["warn", "warn"]);
    expect(logger.lines[0]!.message).toContain("platform.auth.jwt.private-key");
  });

  it("says at info level that the key comes from a durable store", async () => {
    class DurableStore extends InMemoryKeyStore {
      override readonly durable = true as unknown as false;
    }
    const logger = new RecordingLogger();
    const keys = await new ConfiguredJwtKeySource(
      { logger },
      ringOn(new DurableStore(), new ManualClock()),
    ).load();
    expect(keys.generated).toBe(false);
    expect(logger.lines).toEqual([
      {
        level: "info",
        message: "JWT signing key from the key store",
        fields: { algorithm: "ES256", kid: keys.kid },
      },
    ]);
  });

  it("uses a configured key as it is, never the ring", async () => {
    const store = new CountingKeyStore();
    const secret = "s".repeat(32);
    const keys = await new ConfiguredJwtKeySource(
      { algorithm: "HS256", secret, logger: new RecordingLogger() },
      ringOn(store, new ManualClock()),
    ).load();
    expect(keys.generated).toBe(false);
    expect(store.reads).toBe(0);
  });
});
