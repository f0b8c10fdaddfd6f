import { describe, expect, it } from "vitest";
import { ALICE, BOB, setup } from "./zero-trust.fixture.js";

const S1 = "s-1";

describe("ZeroTrustActionResolver hot path", () => {
  it("misses first, then answers from the cache with the very same object and no store read", async () => {
    const { resolver, service, store } = setup();
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
    const loaded = await resolver.resolve({ authentication: ALICE });
    expect(store.gets).toEqual(["user:u-alice"]);
    const hit = resolver.resolveCached({ authentication: ALICE });
    expect(hit).toBe(loaded);
    expect(resolver.resolveCached({ authentication: ALICE })).toBe(hit);
    expect(await resolver.resolve({ authentication: ALICE })).toBe(hit);
    expect(Object.isFrozen(hit)).toBe(true);
    expect(Object.isFrozen(hit?.record)).toBe(true);
    expect(store.gets).toEqual(["user:u-alice"]);
  });

  it("caches 'no record' too, so users without analysis do not hit the store every request", async () => {
    const { resolver, store } = setup();
    await resolver.resolve({ authentication: BOB });
    expect(resolver.resolveCached({ authentication: BOB })).toMatchObject({
      action: undefined,
      evaluated: true,
    });
    expect(store.gets).toHaveLength(1);
  });

  it("caches the session read separately: a new session of a cached user is a miss", async () => {
    const { resolver, service, store } = setup();
    await service.set(`session:${S1}`, "ALLOW", { source: "host" });
    await resolver.resolve({ authentication: ALICE, sessionId: S1 });
    expect(resolver.resolveCached({ authentication: ALICE, sessionId: S1 })?.action).toBe("ALLOW");
    expect(resolver.resolveCached({ authentication: ALICE })?.action).toBeUndefined();
    expect(resolver.resolveCached({ authentication: ALICE, sessionId: "s-2" })).toBeUndefined();
    await resolver.resolve({ authentication: ALICE, sessionId: "s-2" });
    expect(resolver.resolveCached({ authentication: ALICE, sessionId: "s-2" })?.action).toBeUndefined();
    expect(store.gets).toEqual(["user:u-alice", `session:${S1}`, "user:u-alice", "session:s-2"]);
  });

  it("expires entries after store.update-interval-seconds (default 30)", async () => {
    const { resolver, service, clock } = setup();
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    await resolver.resolve({ authentication: ALICE });
    clock.advance(29_999);
    expect(resolver.resolveCached({ authentication: ALICE })).toBeDefined();
    clock.advance(1);
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
  });

  it("honours a shorter update interval", async () => {
    const { resolver, clock } = setup({ "security.zerotrust.store.update-interval-seconds": 5 });
    await resolver.resolve({ authentication: ALICE });
    clock.advance(4_999);
    expect(resolver.resolveCached({ authentication: ALICE })).toBeDefined();
    clock.advance(1);
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
  });

  it("never serves a record past its own expiry (ALLOW lives 15 s)", async () => {
    const { resolver, service, clock } = setup();
    await service.set("user:u-alice", "ALLOW", { source: "host" });
    await resolver.resolve({ authentication: ALICE });
    clock.advance(14_999);
    expect(resolver.resolveCached({ authentication: ALICE })?.action).toBe("ALLOW");
    clock.advance(1);
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
    expect((await resolver.resolve({ authentication: ALICE })).action).toBeUndefined();
  });

  it("is invalidated by service.set and service.clear in this process", async () => {
    const { resolver, service } = setup();
    await service.set("user:u-alice", "ALLOW", { source: "host" });
    await service.set(`session:${S1}`, "ALLOW", { source: "host" });
    await resolver.resolve({ authentication: ALICE, sessionId: S1 });
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    expect(resolver.resolveCached({ authentication: ALICE, sessionId: S1 })).toBeUndefined();
    expect((await resolver.resolve({ authentication: ALICE, sessionId: S1 })).action).toBe("BLOCK");
    await service.clear("user:u-alice");
    await service.set(`session:${S1}`, "CHALLENGE", { source: "host" });
    expect(resolver.resolveCached({ authentication: ALICE, sessionId: S1 })).toBeUndefined();
    expect((await resolver.resolve({ authentication: ALICE, sessionId: S1 })).action).toBe("CHALLENGE");
  });

  it("does not see a write made elsewhere (another process) until the interval ends", async () => {
    const { resolver, memory, clock } = setup();
    await resolver.resolve({ authentication: ALICE });
    await memory.put({ subject: "user:u-alice", action: "BLOCK", source: "admin" }, 3_600_000);
    expect((await resolver.resolve({ authentication: ALICE })).action).toBeUndefined();
    clock.advance(30_000);
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("BLOCK");
  });

  it("does not cache a read that raced a write", async () => {
    const { resolver, service, store } = setup();
    store.mode = "held";
    const racing = resolver.resolve({ authentication: ALICE });
    await Promise.resolve();
    store.mode = "pass";
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    store.release();
    await racing;
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("BLOCK");
  });

  it("shares one store read between concurrent resolutions of a subject", async () => {
    const { resolver, store } = setup();
    store.mode = "held";
    const both = Promise.all([
      resolver.resolve({ authentication: ALICE }),
      resolver.resolve({ authentication: ALICE }),
    ]);
    await Promise.resolve();
    await Promise.resolve();
    store.release();
    const [a, b] = await both;
    expect(a).toEqual(b);
    expect(store.gets).toEqual(["user:u-alice"]);
  });

  it("reads the store on every request when hotpath.enabled is false", async () => {
    const { resolver, service, store } = setup({ "security.zerotrust.hotpath.enabled": false });
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    await resolver.resolve({ authentication: ALICE });
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("CHALLENGE");
    expect(store.gets).toEqual(["user:u-alice", "user:u-alice"]);
  });

  it("invalidateAll forgets every subject", async () => {
    const { resolver } = setup();
    await resolver.resolve({ authentication: ALICE });
    await resolver.resolve({ authentication: BOB, sessionId: S1 });
    resolver.invalidateAll();
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
    expect(resolver.resolveCached({ authentication: BOB })).toBeUndefined();
  });
});
