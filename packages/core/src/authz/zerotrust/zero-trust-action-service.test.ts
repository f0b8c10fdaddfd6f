import { describe, expect, it, vi } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { ZeroTrustAction } from "./zero-trust-action.js";
import { sessionStoreHandle } from "../../identity/session/session-store.js";
import { ALICE, setup } from "./zero-trust.fixture.js";
import { sessionHandle } from "./zero-trust-plugin.js";

const H = 3_600_000;
const M = 60_000;

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return isPlatformError(e) ? e.code : String(e);
  }
  return "resolved";
}

async function ttlOf(code: Record<string, unknown>, subject: string, action: ZeroTrustAction) {
  const { service, clock } = setup(code);
  const record = await service.set(subject, action, { source: "host" });
  return record.expiresAt - clock.now();
}

describe("ZeroTrustActionService ttls", () => {
  it("uses the default lifetimes for users: ALLOW 15 s, CHALLENGE 1800 s, ESCALATE 300 s", async () => {
    expect(await ttlOf({}, "user:u-1", "ALLOW")).toBe(15_000);
    expect(await ttlOf({}, "user:u-1", "CHALLENGE")).toBe(1_800_000);
    expect(await ttlOf({}, "user:u-1", "ESCALATE")).toBe(300_000);
  });

  it("keeps a user BLOCK (the blocked list) for cache.ttl-hours", async () => {
    expect(await ttlOf({}, "user:u-1", "BLOCK")).toBe(24 * H);
    expect(await ttlOf({ "security.zerotrust.cache.ttl-hours": 72 }, "user:u-1", "BLOCK")).toBe(72 * H);
  });

  it("keeps a session BLOCK (an invalidated session) for cache.invalidated-ttl-minutes", async () => {
    expect(await ttlOf({}, "session:s-1", "BLOCK")).toBe(60 * M);
    expect(
      await ttlOf({ "security.zerotrust.cache.invalidated-ttl-minutes": 90 }, "session:s-1", "BLOCK"),
    ).toBe(90 * M);
  });

  it("shortens other session defaults to cache.session-ttl-minutes", async () => {
    const ten = { "security.zerotrust.cache.session-ttl-minutes": 10 };
    expect(await ttlOf({}, "session:s-1", "CHALLENGE")).toBe(30 * M);
    expect(await ttlOf(ten, "session:s-1", "CHALLENGE")).toBe(10 * M);
    expect(await ttlOf(ten, "session:s-1", "ESCALATE")).toBe(5 * M);
    expect(await ttlOf(ten, "user:u-1", "CHALLENGE")).toBe(30 * M);
  });

  it("takes an explicit ttl up to the subject's longest and refuses a longer one", async () => {
    const { service, clock } = setup({ "security.zerotrust.cache.ttl-hours": 2 });
    const r = await service.set("user:u-1", "BLOCK", { source: "admin", ttlMs: 2 * H });
    expect(r.expiresAt - clock.now()).toBe(2 * H);
    await expect(
      service.set("user:u-1", "ALLOW", { source: "admin", ttlMs: 2 * H + 1 }),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: { maxTtlMs: 2 * H },
    });
    await expect(
      service.set("session:s-1", "ALLOW", { source: "admin", ttlMs: 31 * M }),
    ).rejects.toMatchObject({
      details: { maxTtlMs: 30 * M },
    });
    for (const ttlMs of [0, -1, 1.5, Number.NaN]) {
      expect(await codeOf(service.set("user:u-1", "ALLOW", { source: "admin", ttlMs }))).toBe(
        "VALIDATION_FAILED",
      );
    }
    expect(service.maxTtlMs("session:s-1", "BLOCK")).toBe(60 * M);
  });

  it("stores PENDING_ANALYSIS only with an explicit ttl (its default is 0 s)", async () => {
    const { service, memory } = setup();
    expect(await codeOf(service.set("user:u-1", "PENDING_ANALYSIS", { source: "host" }))).toBe(
      "VALIDATION_FAILED",
    );
    expect(await memory.get("user:u-1")).toBeUndefined();
    const r = await service.set("user:u-1", "PENDING_ANALYSIS", { source: "host", ttlMs: 10_000 });
    expect(r.action).toBe("PENDING_ANALYSIS");
  });
});

describe("ZeroTrustActionService writes", () => {
  it("audits zerotrust.action.set with subject, action, source, ttl, version and reason", async () => {
    const { service, audit } = setup();
    const r = await service.set("user:u-1", "CHALLENGE", {
      source: "admin",
      actor: "root",
      reason: "  odd  ",
    });
    expect(r.reason).toBe("odd");
    expect(audit.events()).toEqual([
      expect.objectContaining({
        type: "zerotrust.action.set",
        outcome: "success",
        principal: "root",
        data: {
          subject: "user:u-1",
          action: "CHALLENGE",
          source: "admin",
          ttlMs: 1_800_000,
          expiresAt: r.expiresAt,
          version: 1,
          reason: "odd",
        },
      }),
    ]);
  });

  it("clears, says whether something was there, and audits zerotrust.action.cleared", async () => {
    const { service, audit, memory } = setup();
    await service.set("user:u-1", "BLOCK", { source: "admin" });
    expect(await service.clear("user:u-1", { source: "admin", actor: "root" })).toBe(true);
    expect(await memory.get("user:u-1")).toBeUndefined();
    expect(await service.clear("user:u-1")).toBe(false);
    expect(audit.events().slice(1)).toEqual([
      expect.objectContaining({
        type: "zerotrust.action.cleared",
        principal: "root",
        data: { subject: "user:u-1", existed: true, source: "admin" },
      }),
      expect.objectContaining({ principal: "system", data: { subject: "user:u-1", existed: false } }),
    ]);
  });

  it("refuses bad subjects, actions, reasons and sources with VALIDATION_FAILED", async () => {
    const { service, memory } = setup();
    const bad: [string, ZeroTrustAction, { source: string; reason?: string }][] = [
      ["alice", "BLOCK", { source: "admin" }],
      ["user:", "BLOCK", { source: "admin" }],
      ["user:a b", "BLOCK", { source: "admin" }],
      ["group:x", "BLOCK", { source: "admin" }],
      [`user:${"x".repeat(201)}`, "BLOCK", { source: "admin" }],
      ["user:u-1", "BLOK" as ZeroTrustAction, { source: "admin" }],
      ["user:u-1", "BLOCK", { source: "admin", reason: "x".repeat(501) }],
      ["user:u-1", "BLOCK", { source: "admin", reason: "forged\nzerotrust.action.cleared" }],
      ["user:u-1", "BLOCK", { source: "" }],
    ];
    for (const [subject, action, options] of bad) {
      expect(await codeOf(service.set(subject, action, options)), subject).toBe("VALIDATION_FAILED");
    }
    expect(await codeOf(service.clear("nope"))).toBe("VALIDATION_FAILED");
    expect(await memory.list()).toEqual([]);
  });

  it("drops this process's cached read even when the store's put fails", async () => {
    const { service, resolver, memory } = setup();
    await resolver.resolve({ authentication: ALICE });
    vi.spyOn(memory, "put").mockRejectedValue(new Error("down"));
    await expect(service.set("user:u-alice", "BLOCK", { source: "admin" })).rejects.toThrow("down");
    expect(resolver.resolveCached({ authentication: ALICE })).toBeUndefined();
  });

  it("lists through the store and reads one subject", async () => {
    const { service } = setup();
    await service.set("user:a", "BLOCK", { source: "admin" });
    await service.set("user:b", "ALLOW", { source: "host" });
    expect((await service.list({ action: "BLOCK" })).map((r) => r.subject)).toEqual(["user:a"]);
    expect((await service.get("user:b"))?.action).toBe("ALLOW");
  });
});

describe("ZeroTrustActionService subjects", () => {
  it("takes the account page's 43-character session handle as zero trust's own 22-character one", async () => {
    const { service, resolver } = setup();
    const sessionId = "a-session-id-as-the-cookie-carries-it";
    const accountHandle = sessionStoreHandle(sessionId);
    expect(accountHandle).toHaveLength(43);
    const stored = await service.canonicalSubject(`session:${accountHandle}`);
    expect(stored).toBe(`session:${sessionHandle(sessionId)}`);
    // What an administrator writes under it reaches the session the account page listed.
    await service.set(stored, "BLOCK", { source: "admin", reason: "test" });
    const resolution = await resolver.resolve({
      authentication: ALICE,
      sessionId: sessionHandle(sessionId),
      unsampled: true,
    });
    expect(resolution.action).toBe("BLOCK");
    // Other handles stay as given.
    expect(await service.canonicalSubject("session:abc")).toBe("session:abc");
    expect(await service.canonicalSubject(`session:${accountHandle}x`)).toBe(`session:${accountHandle}x`);
  });
});
