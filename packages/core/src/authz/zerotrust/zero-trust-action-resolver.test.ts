import { describe, expect, it, vi } from "vitest";
import { ALICE, BOB, sequence, setup } from "./zero-trust.fixture.js";
import { ZERO_TRUST_AUDIT } from "./zero-trust-audit.js";

const S1 = "s-1";

describe("ZeroTrustActionResolver rules", () => {
  it("does not evaluate when disabled, and never reads the store", async () => {
    const { resolver, service, store } = setup({ "security.zerotrust.enabled": false });
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    const r = await resolver.resolve({ authentication: ALICE });
    expect(r).toEqual({ action: undefined, evaluated: false, mode: "ENFORCE", reason: "disabled" });
    expect(resolver.resolveCached({ authentication: ALICE })).toBe(r);
    expect(store.gets).toEqual([]);
  });

  it("does not evaluate anonymous requests", async () => {
    const { resolver, store } = setup();
    expect(await resolver.resolve({ authentication: undefined, sessionId: S1 })).toMatchObject({
      evaluated: false,
      reason: "anonymous",
    });
    expect(store.gets).toEqual([]);
  });

  it("answers no analysis (action undefined) for a user without a record", async () => {
    const { resolver } = setup();
    expect(await resolver.resolve({ authentication: ALICE })).toEqual({
      action: undefined,
      evaluated: true,
      mode: "ENFORCE",
      reason: "no-analysis",
    });
  });

  it("answers the user's record", async () => {
    const { resolver, service } = setup();
    const record = await service.set("user:u-alice", "CHALLENGE", { source: "host", reason: "odd hour" });
    expect(await resolver.resolve({ authentication: ALICE })).toEqual({
      action: "CHALLENGE",
      record,
      evaluated: true,
      mode: "ENFORCE",
      reason: "user",
    });
    expect((await resolver.resolve({ authentication: BOB })).action).toBeUndefined();
  });

  it("carries mode SHADOW", async () => {
    const { resolver } = setup({ "security.zerotrust.mode": "SHADOW" });
    expect((await resolver.resolve({ authentication: ALICE })).mode).toBe("SHADOW");
    expect((await resolver.resolve({ authentication: undefined })).mode).toBe("SHADOW");
  });

  it("reads an unknown action string from the store as ESCALATE", async () => {
    const { resolver, memory } = setup();
    await memory.put({ subject: "user:u-alice", action: "ALLOW", source: "host" }, 60_000);
    const raw = await memory.get("user:u-alice");
    vi.spyOn(memory, "get").mockResolvedValue({ ...raw!, action: "QUARANTINE" as never });
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("ESCALATE");
  });
});

describe("ZeroTrustActionResolver session tracking and the blocked list", () => {
  it("lets the session's record win over the user's", async () => {
    const { resolver, service } = setup();
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    await service.set(`session:${S1}`, "ALLOW", { source: "host" });
    const r = await resolver.resolve({ authentication: ALICE, sessionId: S1 });
    expect(r).toMatchObject({ action: "ALLOW", reason: "session", record: { subject: `session:${S1}` } });
    expect((await resolver.resolve({ authentication: ALICE, sessionId: "s-2" })).action).toBe("CHALLENGE");
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("CHALLENGE");
  });

  it("uses a session BLOCK over a user ALLOW", async () => {
    const { resolver, service } = setup();
    await service.set("user:u-alice", "ALLOW", { source: "host" });
    await service.set(`session:${S1}`, "BLOCK", { source: "host" });
    expect((await resolver.resolve({ authentication: ALICE, sessionId: S1 })).action).toBe("BLOCK");
  });

  it("ignores session records, without reading them, when session tracking is off", async () => {
    const { resolver, service, store } = setup({ "security.zerotrust.session.tracking-enabled": false });
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    await service.set(`session:${S1}`, "ALLOW", { source: "host" });
    expect((await resolver.resolve({ authentication: ALICE, sessionId: S1 })).action).toBe("CHALLENGE");
    expect(store.gets).toEqual(["user:u-alice"]);
  });

  it("a user BLOCK (the blocked list) beats a session ALLOW", async () => {
    const { resolver, service } = setup();
    await service.set("user:u-alice", "BLOCK", { source: "admin", reason: "fraud" });
    await service.set(`session:${S1}`, "ALLOW", { source: "host" });
    const fresh = await resolver.resolve({ authentication: ALICE, sessionId: S1 });
    expect(fresh).toMatchObject({ action: "BLOCK", reason: "blocked" });
    expect(resolver.resolveCached({ authentication: ALICE, sessionId: S1 })).toBe(fresh);
  });
});

describe("ZeroTrustActionResolver sampling", () => {
  it("evaluates a request when random() < rate, else not (reason not-sampled)", async () => {
    const { resolver, service } = setup(
      { "security.zerotrust.sampling.rate": 0.5 },
      sequence(0.49, 0.5, 0.99),
    );
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("CHALLENGE");
    expect(await resolver.resolve({ authentication: ALICE })).toMatchObject({
      evaluated: false,
      reason: "not-sampled",
    });
    expect(resolver.resolveCached({ authentication: ALICE })).toMatchObject({ evaluated: false });
  });

  it("draws no random number at rate 1 or rate 0", async () => {
    for (const rate of [1, 0]) {
      const random = vi.fn(() => 0);
      const { resolver } = setup({ "security.zerotrust.sampling.rate": rate }, random);
      const r = await resolver.resolve({ authentication: ALICE });
      expect(r.evaluated).toBe(rate === 1);
      expect(random).not.toHaveBeenCalled();
    }
  });

  it("draws once per request on the resolveCached → resolve fallback path", async () => {
    const random = vi.fn(sequence(0.1, 0.2));
    const { resolver } = setup({ "security.zerotrust.sampling.rate": 0.5 }, random);
    const input = { authentication: ALICE };
    expect(resolver.resolveCached(input)).toBeUndefined();
    expect((await resolver.resolve(input)).evaluated).toBe(true);
    expect(random).toHaveBeenCalledTimes(1);
    expect((await resolver.resolve({ authentication: ALICE })).evaluated).toBe(true);
    expect(random).toHaveBeenCalledTimes(2);
  });

  it("still enforces a user BLOCK the hot-path cache holds on an unsampled request", async () => {
    const { resolver, service } = setup({ "security.zerotrust.sampling.rate": 0.5 }, sequence(0, 0.9, 0.9));
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    await service.set("user:u-bob", "CHALLENGE", { source: "host" });
    await resolver.resolve({ authentication: ALICE });
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("BLOCK");
    expect((await resolver.resolve({ authentication: BOB })).evaluated).toBe(false);
  });
});

describe("ZeroTrustActionResolver store failures", () => {
  const quick = { "security.zerotrust.store.timeout": "20ms" };

  it("answers PENDING_ANALYSIS (reason timeout) within store.timeout and audits it", async () => {
    const { resolver, store, audit } = setup(quick);
    store.mode = "hang";
    const started = performance.now();
    const r = await resolver.resolve({ authentication: ALICE, sessionId: S1 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(r).toEqual({ action: "PENDING_ANALYSIS", evaluated: true, mode: "ENFORCE", reason: "timeout" });
    expect(audit.events()).toEqual([
      expect.objectContaining({
        type: ZERO_TRUST_AUDIT.storeUnavailable,
        outcome: "failure",
        principal: "alice",
        data: { reason: "timeout", userId: "u-alice", timeoutMs: 20 },
      }),
    ]);
  });

  it("answers PENDING_ANALYSIS (reason error) when the store throws or rejects, without its message", async () => {
    for (const mode of ["throw", "reject"] as const) {
      const { resolver, store, audit } = setup(quick);
      store.mode = mode;
      expect(await resolver.resolve({ authentication: ALICE })).toMatchObject({
        action: "PENDING_ANALYSIS",
        reason: "error",
      });
      expect(audit.events()[0]?.data).toEqual({
        reason: "error",
        userId: "u-alice",
        timeoutMs: 20,
        error: "Error",
      });
      expect(JSON.stringify(audit.events())).not.toContain("secret");
    }
  });

  it("does not cache a failure: the next request reads the recovered store", async () => {
    const { resolver, store, service } = setup(quick);
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    store.mode = "throw";
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("PENDING_ANALYSIS");
    store.mode = "pass";
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("CHALLENGE");
  });

  it("serves the last unexpired record read (stale) while the store fails, not past its expiry", async () => {
    const { resolver, store, service, clock } = setup(quick);
    await service.set("user:u-alice", "CHALLENGE", { source: "host" });
    await resolver.resolve({ authentication: ALICE });
    clock.advance(30_000);
    store.mode = "reject";
    expect(await resolver.resolve({ authentication: ALICE })).toMatchObject({
      action: "CHALLENGE",
      reason: "error",
      stale: true,
    });
    clock.advance(1_800_000);
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("PENDING_ANALYSIS");
  });

  it("never throws when the audit sink throws too", async () => {
    const { resolver, store, audit } = setup(quick);
    store.mode = "throw";
    vi.spyOn(audit, "record").mockImplementation(() => {
      throw new Error("sink down");
    });
    expect((await resolver.resolve({ authentication: ALICE })).action).toBe("PENDING_ANALYSIS");
  });
});
