import { describe, expect, it, vi } from "vitest";
import { InProcessEventBus } from "../../kernel/event-bus.js";
import { MFA_ADAPTIVE_ASSESSED_EVENT } from "../../mfa/adaptive/ai-adaptive-mfa-policy-provider.js";
import { ESCALATION_EVENTS } from "../../mfa/escalation/escalation-events.js";
import { AdaptiveMfaZeroTrustListener, zeroTrustActionOfBand } from "./adaptive-mfa-zero-trust-listener.js";
import { setup } from "./zero-trust.fixture.js";

function wired(code: Record<string, unknown> = {}) {
  const s = setup(code);
  const events = new InProcessEventBus();
  const listener = new AdaptiveMfaZeroTrustListener(s.service, s.audit, s.properties);
  const off = listener.subscribe(events);
  const assess = async (score: number, userId = "u-alice") => {
    await events.publish(MFA_ADAPTIVE_ASSESSED_EVENT, {
      userId,
      score,
      band: "ignored",
      decision: "CHALLENGED",
      analyzer: "heuristic@1",
      signals: [],
    });
    await listener.settled();
    return s.memory.get(`user:${userId}`);
  };
  return { ...s, events, listener, off, assess };
}

describe("AdaptiveMfaZeroTrustListener", () => {
  it("maps bands: strict → ESCALATE, required → CHALLENGE, lower → ALLOW", () => {
    expect(zeroTrustActionOfBand("strict")).toBe("ESCALATE");
    expect(zeroTrustActionOfBand("required")).toBe("CHALLENGE");
    for (const band of ["elevated", "optional", "skip"] as const)
      expect(zeroTrustActionOfBand(band)).toBe("ALLOW");
  });

  it("writes the user's action from the score with the default thresholds and ttls", async () => {
    const { assess, clock } = wired();
    expect(await assess(0.95)).toMatchObject({
      action: "ESCALATE",
      source: "adaptive-mfa",
      reason: "adaptive MFA: strict risk (score 0.95, heuristic@1)",
      expiresAt: clock.now() + 300_000,
    });
    expect(await assess(0.9)).toMatchObject({ action: "ESCALATE" });
    expect(await assess(0.7)).toMatchObject({ action: "CHALLENGE", expiresAt: clock.now() + 1_800_000 });
    expect(await assess(0.69)).toMatchObject({ action: "ALLOW", expiresAt: clock.now() + 15_000 });
    expect(await assess(0)).toMatchObject({ action: "ALLOW" });
  });

  it("reads the thresholds from security.zerotrust.thresholds.*", async () => {
    const { assess } = wired({
      "security.zerotrust.thresholds.optional": 0.3,
      "security.zerotrust.thresholds.required": 0.4,
      "security.zerotrust.thresholds.strict": 0.6,
    });
    expect(await assess(0.45)).toMatchObject({ action: "CHALLENGE" });
    expect(await assess(0.6)).toMatchObject({ action: "ESCALATE" });
  });

  it("invalidates the resolver's cache, so the next request sees the new action", async () => {
    const { assess, resolver } = wired();
    const alice = {
      userId: "u-alice",
      username: "alice",
      authorities: [],
      method: "form" as const,
      authenticatedAt: 0,
      factors: [],
    };
    await resolver.resolve({ authentication: alice });
    await assess(0.8);
    expect(resolver.resolveCached({ authentication: alice })).toBeUndefined();
    expect((await resolver.resolve({ authentication: alice })).action).toBe("CHALLENGE");
  });

  it("never replaces a BLOCK or an administrator's record", async () => {
    const { assess, service } = wired();
    await service.set("user:u-alice", "BLOCK", { source: "host" });
    expect(await assess(0.1)).toMatchObject({ action: "BLOCK", source: "host" });
    await service.set("user:u-alice", "CHALLENGE", { source: "admin" });
    expect(await assess(0.1)).toMatchObject({ action: "CHALLENGE", source: "admin" });
  });

  it("clears its ESCALATE when an administrator approves the escalated login, and nothing else", async () => {
    const { assess, events, listener, memory, service } = wired();
    await assess(0.95);
    await events.publish(ESCALATION_EVENTS.approved, {
      userId: "u-alice",
      decidedBy: "root",
      status: "APPROVED",
    });
    await listener.settled();
    expect(await memory.get("user:u-alice")).toBeUndefined();
    await service.set("user:u-alice", "ESCALATE", { source: "admin" });
    await events.publish(ESCALATION_EVENTS.approved, { userId: "u-alice", decidedBy: "root" });
    await listener.settled();
    expect(await memory.get("user:u-alice")).toMatchObject({ action: "ESCALATE", source: "admin" });
  });

  it("does not hold the publisher while writing, and audits a failed or slow write", async () => {
    const { events, listener, memory, audit } = wired({ "security.zerotrust.store.timeout": "200ms" });
    vi.spyOn(memory, "get").mockReturnValue(new Promise(() => {}));
    await events.publish(MFA_ADAPTIVE_ASSESSED_EVENT, { userId: "u-alice", score: 0.8, analyzer: "a" });
    expect(audit.events()).toEqual([]);
    await listener.settled();
    vi.spyOn(memory, "get").mockRejectedValue(Object.assign(new Error("x"), { code: "STORE_DOWN" }));
    await events.publish(MFA_ADAPTIVE_ASSESSED_EVENT, { userId: "u-alice", score: 0.8, analyzer: "a" });
    await listener.settled();
    expect(audit.events().map((e) => e.data)).toEqual([
      { reason: "timeout", subject: "user:u-alice" },
      { reason: "error", subject: "user:u-alice", error: "STORE_DOWN" },
    ]);
  });

  it("audits and ignores malformed payloads; unsubscribes", async () => {
    const { events, listener, memory, audit, off } = wired();
    for (const payload of [
      undefined,
      { userId: 1, score: 0.5 },
      { userId: "u", score: 1.5 },
      { userId: "u", score: Number.NaN },
    ]) {
      await events.publish(MFA_ADAPTIVE_ASSESSED_EVENT, payload);
    }
    await events.publish(ESCALATION_EVENTS.approved, {});
    await listener.settled();
    expect(audit.events().map((e) => e.data?.reason)).toEqual(Array(5).fill("invalid-payload"));
    off();
    await events.publish(MFA_ADAPTIVE_ASSESSED_EVENT, { userId: "u-alice", score: 0.95 });
    await listener.settled();
    expect(await memory.list()).toEqual([]);
  });

  it("audits a user id that is not a valid subject instead of throwing at the bus", async () => {
    const { events, listener, audit } = wired();
    await events.publish(MFA_ADAPTIVE_ASSESSED_EVENT, { userId: "has space", score: 0.95 });
    await listener.settled();
    expect(audit.events()[0]?.data).toEqual({
      reason: "error",
      subject: "user:has space",
      error: "VALIDATION_FAILED",
    });
  });
});
