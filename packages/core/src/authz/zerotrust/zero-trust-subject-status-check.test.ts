import { describe, expect, it, vi } from "vitest";
import {
  SUBJECT_GOES_ON,
  type SubjectCheckpoint,
  type SubjectStatusQuery,
} from "../../identity/authentication/subject-status-check.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { ZERO_TRUST_ACTIONS } from "./zero-trust-action.js";
import { ALICE, BOB, sequence, setup } from "./zero-trust.fixture.js";
import { ZeroTrustSubjectStatusCheck } from "./zero-trust-subject-status-check.js";

const CHECKPOINTS: readonly SubjectCheckpoint[] = ["sign-in", "token-refresh", "step-up", "me", "request"];
const SESSION = "h-1";

/** A request with a session cookie (sessions are cookies: the handle is asked only when there is one). */
function request(headers: Record<string, string> = { cookie: "PLATFORM_SESSION=s-1" }): HttpExchange {
  return new HttpExchange({
    method: "POST",
    url: "/login",
    headers,
    remoteAddress: "203.0.113.9",
    readBody: async () => "",
  });
}

function checked(
  code: Record<string, unknown> = {},
  random?: () => number,
  sessionHandle: () => string | Promise<string> = () => Promise.resolve(SESSION),
) {
  const s = setup(code, random);
  const check = new ZeroTrustSubjectStatusCheck({ resolver: s.resolver, audit: s.audit, sessionHandle });
  const at = (checkpoint: SubjectCheckpoint, authentication = ALICE) =>
    check.check({ checkpoint, authentication, exchange: request() });
  return { ...s, check, at };
}

describe("ZeroTrustSubjectStatusCheck", () => {
  it("refuses a user BLOCK at every checkpoint with ZERO_TRUST_BLOCKED, audited without reaching the client", async () => {
    const { service, at, audit } = checked();
    await service.set("user:u-alice", "BLOCK", { source: "admin", reason: "stolen laptop" });
    for (const checkpoint of CHECKPOINTS) {
      const refusal = await at(checkpoint).catch((e: unknown) => e);
      expect(refusal, checkpoint).toMatchObject({
        code: "ZERO_TRUST_BLOCKED",
        message: "Access is blocked: ask an administrator to review it",
        details: undefined,
      });
      expect(String((refusal as Error).message)).not.toContain("stolen");
    }
    await expect(at("sign-in", BOB)).resolves.toBeUndefined();
    const denied = audit.events().filter((e) => e.type === "zerotrust.checkpoint.denied");
    expect(denied.map((e) => e.data?.checkpoint)).toEqual([...CHECKPOINTS]);
    expect(denied[0]).toMatchObject({
      outcome: "denied",
      principal: "alice",
      remoteAddress: "203.0.113.9",
      data: { userId: "u-alice", subject: "user:u-alice", source: "admin", reason: "stolen laptop" },
    });
  });

  it("lets every other action through at every checkpoint (the protected URLs answer them)", async () => {
    for (const action of ZERO_TRUST_ACTIONS.filter((a) => a !== "BLOCK")) {
      const { service, at } = checked();
      await service.set("user:u-alice", action, { source: "host", ttlMs: 60_000 });
      for (const checkpoint of CHECKPOINTS)
        await expect(at(checkpoint), `${action} ${checkpoint}`).resolves.toBeUndefined();
    }
    const { at } = checked({ "security.zerotrust.pending-analysis": "DENY" });
    for (const checkpoint of CHECKPOINTS) await expect(at(checkpoint)).resolves.toBeUndefined();
  });

  it("judges a session handle known at once (a string) as a promised one, refusing with a rejection, never a throw", async () => {
    const { service, at } = checked({}, undefined, () => SESSION);
    await at("request"); // the store read; then the hot path holds alice and her session
    expect(at("request")).toBe(SUBJECT_GOES_ON);
    await service.set(`session:${SESSION}`, "BLOCK", { source: "admin" });
    let answer: Promise<void> | undefined;
    expect(() => {
      answer = at("request");
    }).not.toThrow();
    await expect(answer).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    await expect(at("me")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    await expect(at("sign-in")).resolves.toBeUndefined();
  });

  it("counts the caller's session BLOCK at step-up, /api/me and every request only: a sign-in or refresh starts from no session", async () => {
    const { service, at } = checked();
    await service.set(`session:${SESSION}`, "BLOCK", { source: "admin" });
    await expect(at("step-up")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    await expect(at("me")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    await expect(at("request")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    await expect(at("sign-in")).resolves.toBeUndefined();
    await expect(at("token-refresh")).resolves.toBeUndefined();
  });

  it("asks no session handle of a request without a Cookie header (an API caller has no session)", async () => {
    const s = setup({});
    let asked = 0;
    const check = new ZeroTrustSubjectStatusCheck({
      resolver: s.resolver,
      audit: s.audit,
      sessionHandle: () => {
        asked++;
        return Promise.resolve(SESSION);
      },
    });
    await s.service.set(`session:${SESSION}`, "BLOCK", { source: "admin" });
    const exchange = request({ authorization: "Bearer t" });
    await expect(
      check.check({ checkpoint: "request", authentication: ALICE, exchange }),
    ).resolves.toBeUndefined();
    expect(asked).toBe(0);
    await expect(
      check.check({ checkpoint: "request", authentication: ALICE, exchange: request() }),
    ).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    expect(asked).toBe(1);
  });

  it("a user BLOCK beats the session's ALLOW (the resolver's precedence)", async () => {
    const { service, at } = checked();
    await service.set(`session:${SESSION}`, "ALLOW", { source: "host" });
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    await expect(at("me")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
  });

  it("is never sampled out: with sampling.rate 0 the BLOCK still refuses, and no dice are drawn", async () => {
    const { service, at } = checked({ "security.zerotrust.sampling.rate": 0 }, sequence());
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    await expect(at("sign-in")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
  });

  it("ends with the BLOCK's TTL", async () => {
    const { service, at, clock } = checked();
    await service.set("user:u-alice", "BLOCK", { source: "admin", ttlMs: 60_000 });
    await expect(at("sign-in")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    clock.advance(60_000);
    await expect(at("sign-in")).resolves.toBeUndefined();
  });

  it("SHADOW audits what it would refuse and lets it through", async () => {
    const { service, at, audit } = checked({ "security.zerotrust.mode": "SHADOW" });
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    await expect(at("sign-in")).resolves.toBeUndefined();
    expect(audit.events().filter((e) => e.type === "zerotrust.checkpoint.shadow")).toHaveLength(1);
    expect(audit.events().some((e) => e.type === "zerotrust.checkpoint.denied")).toBe(false);
  });

  it("does nothing when zero trust is disabled", async () => {
    const { service, at, store } = checked({ "security.zerotrust.enabled": false });
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    await expect(at("sign-in")).resolves.toBeUndefined();
    expect(store.gets).toEqual([]);
  });

  it("keeps refusing from the last read when the store fails (stale-if-error), and a broken sink changes nothing", async () => {
    const { service, at, store, audit, clock } = checked();
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    await expect(at("sign-in")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    clock.advance(10 * 60_000); // past the hot-path interval, well within the BLOCK
    store.mode = "reject";
    audit.record = () => {
      throw new Error("sink down");
    };
    const reads = store.gets.length;
    await expect(at("token-refresh")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    expect(store.gets.length).toBeGreaterThan(reads);
  });

  describe("once per request", () => {
    /** One request (one exchange) asked at `checkpoints` in order; counts the resolver's calls. */
    function counted(code: Record<string, unknown> = {}) {
      const s = checked(code);
      // Every resolution starts with `resolveCached`; a miss goes on to `resolve` (the same one).
      const cached = vi.spyOn(s.resolver, "resolveCached");
      const ask = (exchange: HttpExchange, checkpoint: SubjectCheckpoint, authentication = ALICE) =>
        s.check.check({ checkpoint, authentication, exchange });
      return { ...s, ask, resolutions: () => cached.mock.calls.length };
    }

    it("`me` after `request` judges the request's resolution: the resolver is asked once, the store read once", async () => {
      const { ask, resolutions, store } = counted();
      const exchange = request();
      await expect(ask(exchange, "request")).resolves.toBeUndefined();
      await expect(ask(exchange, "me")).resolves.toBeUndefined();
      expect(resolutions()).toBe(1);
      expect(store.gets).toEqual(["user:u-alice", `session:${SESSION}`]);
      // Another request resolves again (from the hot path here): nothing is kept across requests.
      const next = request();
      await ask(next, "request");
      await ask(next, "me");
      expect(resolutions()).toBe(2);
    });

    it("a BLOCK written between two requests is seen by the second, at `request` and at `me`", async () => {
      const { ask, service, audit } = counted();
      const first = request();
      await ask(first, "request");
      await ask(first, "me");
      await service.set("user:u-alice", "BLOCK", { source: "admin", reason: "stolen laptop" });
      const second = request();
      await expect(ask(second, "request")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
      await expect(ask(second, "me")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
      const denied = audit.events().filter((e) => e.type === "zerotrust.checkpoint.denied");
      expect(denied.map((e) => e.data?.checkpoint)).toEqual(["request", "me"]);
    });

    it("SHADOW audits the BLOCK at `request` and at `me` as before, from one resolution, and lets both through", async () => {
      const { ask, service, audit, resolutions } = counted({ "security.zerotrust.mode": "SHADOW" });
      await service.set("user:u-alice", "BLOCK", { source: "admin" });
      const exchange = request();
      await expect(ask(exchange, "request")).resolves.toBeUndefined();
      await expect(ask(exchange, "me")).resolves.toBeUndefined();
      const shadow = audit.events().filter((e) => e.type === "zerotrust.checkpoint.shadow");
      expect(shadow.map((e) => e.data?.checkpoint)).toEqual(["request", "me"]);
      expect(resolutions()).toBe(1);
    });

    it("resolves afresh at `me` for another caller (a sign-in during the request), and at `step-up` and `credential`", async () => {
      const { ask, service, resolutions } = counted();
      const exchange = request();
      await ask(exchange, "request");
      await service.set("user:u-bob", "BLOCK", { source: "admin" });
      await expect(ask(exchange, "me", BOB)).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
      expect(resolutions()).toBe(2);
      // A BLOCK written after this request's `request` checkpoint: step-up and credential read it.
      await service.set("user:u-alice", "BLOCK", { source: "admin" });
      await expect(ask(exchange, "step-up")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
      await expect(ask(exchange, "credential")).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
      expect(resolutions()).toBe(4);
    });

    it("never throws synchronously (the gate asks it directly): a broken query is a rejected promise", async () => {
      const { check } = checked();
      const broken = { checkpoint: "request", authentication: ALICE } as unknown as SubjectStatusQuery;
      let answer: Promise<void> | undefined;
      expect(() => {
        answer = check.check(broken);
      }).not.toThrow();
      await expect(answer).rejects.toBeInstanceOf(TypeError);
    });

    it("answers a hot-path hit and a reused resolution with SUBJECT_GOES_ON (settled, shared): no async layer", async () => {
      const { ask } = counted();
      const exchange = new HttpExchange({
        method: "GET",
        url: "/api/me",
        headers: { authorization: "Bearer t" },
        remoteAddress: "203.0.113.9",
        readBody: async () => "",
      });
      await ask(exchange, "request"); // the store read, then the hot path holds alice
      expect(ask(exchange, "request")).toBe(SUBJECT_GOES_ON);
      expect(ask(exchange, "me")).toBe(SUBJECT_GOES_ON);
    });
  });
});
