import { describe, expect, it } from "vitest";
import { zeroTrustSessionSubject, zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import type { DecisionMaker, DecisionRequest } from "./decision-maker.js";
import {
  ADMIN_DENIAL_BURST,
  pipelineFixture,
  RecordingDecisionMaker,
  until,
} from "./decision-pipeline.fixture.js";
import { DECISION_PIPELINE_SOURCE } from "./decisions-audit.js";

// Every decision here is the real model side's: the layered engine over the offline analyst. The
// fixture's alice signs in from an external address with a new account, which the analyst scores
// 0.4 (EXTERNAL_NETWORK, NEW_ACCOUNT): CHALLENGE, decided in L2 (L1 knows too few facts).

describe("DecisionPipeline: an outcome lands everywhere", () => {
  it("keeps the signalling request's correlation id on the evidence and the decision.made audit event", async () => {
    const f = await pipelineFixture();
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { correlationId: "edge-123" }));
    await f.pipeline.idle();
    const [made] = f.auditOf("decision.made");
    expect(made?.correlationId).toBe("edge-123");
    expect((await f.evidence.get(made!.data!.decisionId as string))?.correlationId).toBe("edge-123");
  });

  it("writes the action for the user and the session, the audit record, the history and the evidence", async () => {
    const f = await pipelineFixture();
    expect(f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { sessionHandle: "h-1", device: "dev-1" }))).toBe(
      "queued",
    );
    await f.pipeline.idle();

    const user = await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id));
    expect(user).toMatchObject({ action: "CHALLENGE", source: "ai-decision" });
    expect(user?.reason).toContain("AI CHALLENGE");
    expect(await f.zeroTrust.get(zeroTrustSessionSubject("h-1"))).toMatchObject({ action: "CHALLENGE" });

    const [made] = f.auditOf("decision.made");
    expect(made).toMatchObject({
      outcome: "success",
      principal: "alice@example.com",
      data: {
        action: "CHALLENGE",
        eventKind: "SIGN_IN_COMPLETED",
        selectionSource: "BUILD_DEFAULT",
        layer: "L1",
        riskScore: 0.4,
        reasons: ["EXTERNAL_NETWORK", "NEW_ACCOUNT"],
        model: "builtin:offline-analyst/1",
      },
    });
    const decisionId = made!.data!.decisionId as string;
    // The record names the decision (the held user's answer reads it from there).
    expect(user?.reason).toMatch(new RegExp(`^decision ${decisionId}: AI CHALLENGE \\(risk 0\\.4, L1`));

    const [past] = await f.history.recentFor(f.alice.id, 5);
    expect(past).toMatchObject({
      id: decisionId,
      action: "CHALLENGE",
      outcome: "ENFORCED",
      target: "/api/orders",
    });

    const pkg = await f.evidence.get(decisionId);
    const request = f.maker.requests[0]!;
    expect(pkg?.input).toEqual(request.input);
    expect(pkg?.prompts.map((p) => p.layer)).toEqual(["L1"]);
    const { bundle } = request.selection;
    const sent = bundle.render(request.input, bundle.budgets.find((b) => b.family === "L1")!);
    expect(pkg?.prompts[0]).toEqual({ layer: "L1", system: sent.system, user: sent.user });
    expect(pkg?.metadata).toMatchObject({
      bundleVersion: "2026.07.30-v19",
      model: { id: "builtin:offline-analyst/1", external: false },
    });
  });

  it("builds the context from the account, the event and past decisions", async () => {
    const f = await pipelineFixture();
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    f.pipeline.submit(f.event("REPEATED_DENIALS", { detail: { denials: 5 } }));
    await f.pipeline.idle();
    const input = f.maker.requests[1]!.input;
    expect(input.request).toMatchObject({
      subject: "alice@example.com",
      roles: ["ROLE_USER"],
      permissions: ["orders:read"],
      method: "GET",
      target: "/api/orders",
      network: "203.0.113.54",
    });
    expect(input.markedMissing).toEqual(["request.device"]);
    expect(input.pastRecords).toHaveLength(1);
    expect(input.pastRecords[0]).toMatchObject({ decision: "CHALLENGE", target: "/api/orders" });
    expect(input.context.evidence?.[0]).toBe("event REPEATED_DENIALS denials=5");
  });
});

describe("DecisionPipeline: context edge cases", () => {
  it("leaves out empty and malformed event fields instead of failing the decision", async () => {
    const f = await pipelineFixture();
    f.pipeline.submit(
      f.event("SIGN_IN_COMPLETED", { method: "", target: "", device: "", remoteAddress: "not-an-ip" }),
    );
    await f.pipeline.idle();
    const request = f.maker.requests[0]!.input.request;
    expect(request).not.toHaveProperty("method");
    expect(request).not.toHaveProperty("target");
    expect(request).not.toHaveProperty("network");
    expect(f.maker.requests[0]!.input.markedMissing).toEqual(["request.network", "request.device"]);
    expect(f.pipeline.stats().decided).toBe(1);
  });
});

describe("DecisionPipeline: off the request path", () => {
  it("marks the user PENDING_ANALYSIS while the decision waits, then writes the decision", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.holding = true;
    const f = await pipelineFixture({}, maker);
    expect(f.pipeline.submit(f.event("MFA_FAILURE"))).toBe("queued");
    await until(() => maker.requests.length === 1);
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({
      action: "PENDING_ANALYSIS",
      source: "ai-decision",
    });
    maker.gate.release();
    await f.pipeline.idle();
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).toBe("CHALLENGE");
  });

  it("drops an event that does not fit the queue, counted and audited", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.holding = true;
    const f = await pipelineFixture(
      { "platform.security.decision.queue.capacity": 1, "platform.security.decision.queue.concurrency": 1 },
      maker,
    );
    const bob = await f.users.create({ username: "bob" });
    const carol = await f.users.create({ username: "carol" });
    expect(f.pipeline.submit(f.event("SIGN_IN_COMPLETED"))).toBe("queued"); // running
    expect(f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { userId: bob.id }))).toBe("queued"); // waiting
    expect(f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { userId: carol.id }))).toBe("queue-full");
    expect(f.pipeline.stats().dropped["queue-full"]).toBe(1);
    expect(f.auditOf("decision.dropped")).toMatchObject([
      { data: { reason: "queue-full", userId: carol.id } },
    ]);
    maker.gate.release();
    await f.pipeline.idle();
    expect(f.pipeline.stats().decided).toBe(2);
  });

  it("coalesces a routine event of a user whose decision is still waiting, and defers the latest risky one", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.holding = true;
    const f = await pipelineFixture({}, maker);
    expect(f.pipeline.submit(f.event("MFA_FAILURE"))).toBe("queued");
    expect(f.pipeline.submit(f.event("REQUEST_SAMPLED"))).toBe("coalesced");
    expect(f.pipeline.submit(f.event("MFA_FAILURE"))).toBe("deferred");
    expect(f.pipeline.submit(f.event("MFA_LOCKOUT"))).toBe("deferred"); // replaces the deferred failure
    maker.gate.release();
    await f.pipeline.idle();
    expect(maker.requests.map((r) => r.event.kind)).toEqual(["MFA_FAILURE", "MFA_LOCKOUT"]);
    expect(f.pipeline.submit(f.event("MFA_LOCKOUT"))).toBe("queued");
    await f.pipeline.idle();
    expect(f.pipeline.stats()).toMatchObject({ decided: 3, coalesced: 2, deferred: 1 });
  });

  it("aborts a decision past its timeout, audits it, and lets the user's next event in once it is decided", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.mode = "hang";
    const f = await pipelineFixture({ "platform.security.decision.timeout": 20 }, maker);
    f.pipeline.submit(f.event("MFA_FAILURE"));
    await f.pipeline.idle();
    await until(() => f.auditOf("decision.failed").length === 1);
    expect(f.auditOf("decision.failed")[0]).toMatchObject({ data: { reason: "timeout" } });
    expect(f.pipeline.stats().timedOut).toBe(1);
    await f.pipeline.idle();
    expect(f.fallback.requests).toHaveLength(1); // decided in process instead
    expect(f.pipeline.submit(f.event("MFA_FAILURE"))).toBe("queued"); // not stuck as "waiting"
  });

  it("writes the engine's fallback when the model is down: ESCALATE, no risk score", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.mode = "fail";
    const f = await pipelineFixture({}, maker);
    f.pipeline.submit(f.event("MFA_FAILURE"));
    await f.pipeline.idle();
    const user = await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id));
    expect(user).toMatchObject({ action: "ESCALATE", source: "ai-decision" });
    expect(user?.reason).toContain("risk none");
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({
      action: "ESCALATE",
      riskScore: null,
      layer: "L2",
      fallback: expect.stringContaining("DECISION_MODEL_UNAVAILABLE"),
    });
    const [past] = await f.history.recentFor(f.alice.id, 1);
    expect(past).toMatchObject({ action: "ESCALATE" });
    expect(past).not.toHaveProperty("riskScore");
    expect((await f.evidence.recent(1))[0]!.metadata.riskScore).toBeNull();
  });

  it("audits a failed decision and decides it in process", async () => {
    // A stand-in: the engine resolves with a fallback on every model failure and rejects only on a
    // bundle it cannot read, which the selector never hands it; a host's DecisionMaker may throw.
    const maker: DecisionMaker & { requests: DecisionRequest[] } = {
      model: { id: "host", external: false },
      requests: [],
      decide: () => Promise.reject(new Error("model down")),
    };
    const f = await pipelineFixture({}, maker);
    f.pipeline.submit(f.event("MFA_FAILURE"));
    await f.pipeline.idle();
    expect(f.auditOf("decision.failed")).toMatchObject([{ outcome: "failure", data: { reason: "error" } }]);
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({
      fallback: expect.stringContaining("DECISION_MAKER_FAILED"),
    });
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).not.toBe("PENDING_ANALYSIS");
    expect(f.pipeline.stats()).toMatchObject({ failed: 1, fellBack: { error: 1 } });
  });
});

describe("DecisionPipeline: kill switch and caps", () => {
  it("decides nothing and writes nothing when platform.security.decision.enabled is false", async () => {
    const f = await pipelineFixture({ "platform.security.decision.enabled": false });
    expect(f.pipeline.submit(f.event("MFA_LOCKOUT"))).toBe("disabled");
    await f.pipeline.idle();
    expect(f.maker.requests).toEqual([]);
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toBeUndefined();
    expect(f.pipeline.stats().disabled).toBe(1);
  });

  it("decides in process past the per-minute rate cap until the next minute", async () => {
    // Each decision here is made at L1: one call, so a cap of 2 admits two decisions.
    const f = await pipelineFixture({
      "platform.security.decision.calls-per-minute": 2,
      "platform.security.decision.high-severity-reserve": 0,
      "platform.security.decision.redecide-after": 0,
    });
    for (let i = 0; i < 3; i++) {
      f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
      await f.pipeline.idle();
    }
    expect(f.maker.requests).toHaveLength(2);
    expect(f.fallback.requests).toHaveLength(1);
    expect(f.pipeline.stats().fellBack["rate-cap"]).toBe(1);
    f.clock.advance(60_000);
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    expect(f.maker.requests).toHaveLength(3);
  });

  it("counts every prompt against the per-day cost cap", async () => {
    const maker = new RecordingDecisionMaker();
    const f = await pipelineFixture(
      {
        "platform.security.decision.calls-per-day": 3,
        "platform.security.decision.high-severity-reserve": 0,
        "platform.security.decision.redecide-after": 0,
      },
      maker,
    );
    for (let i = 0; i < 3; i++) {
      f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
      await f.pipeline.idle();
      f.clock.advance(60_000);
    }
    expect(maker.requests).toHaveLength(2); // 2 + 2 calls: the third decision is past the cap
    expect(f.pipeline.stats().fellBack["cost-cap"]).toBe(1);
  });
});

describe("DecisionPipeline: sampled requests", () => {
  it("does not re-decide a sampled request whose user has a live action", async () => {
    const f = await pipelineFixture();
    await f.zeroTrust.set(zeroTrustUserSubject(f.alice.id), "ALLOW", { source: "host" });
    f.pipeline.submit(f.event("REQUEST_SAMPLED"));
    await f.pipeline.idle();
    expect(f.maker.requests).toEqual([]);
    expect(f.pipeline.stats().freshActionKept).toBe(1);
  });

  it("decides a sampled request whose user has no live action, without a pending marker first", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.holding = true;
    const f = await pipelineFixture({}, maker);
    f.pipeline.submit(f.event("REQUEST_SAMPLED"));
    await until(() => maker.requests.length === 1);
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toBeUndefined();
    maker.gate.release();
    await f.pipeline.idle();
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).toBe("CHALLENGE");
  });
});

describe("DecisionPipeline: records it never replaces", () => {
  it("keeps an administrator's record and someone else's BLOCK", async () => {
    const f = await pipelineFixture();
    const bob = await f.users.create({ username: "bob" });
    await f.zeroTrust.set(zeroTrustUserSubject(f.alice.id), "CHALLENGE", { source: "admin" });
    await f.zeroTrust.set(zeroTrustUserSubject(bob.id), "BLOCK", { source: "host" });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { userId: bob.id }));
    await f.pipeline.idle();
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({
      action: "CHALLENGE",
      source: "admin",
    });
    expect(await f.zeroTrust.get(zeroTrustUserSubject(bob.id))).toMatchObject({
      action: "BLOCK",
      source: "host",
    });
    expect(f.pipeline.stats().decided).toBe(2);
  });

  it("records a decision an administrator's record kept from the user as NOT_ENFORCED, and writes no session record either", async () => {
    const f = await pipelineFixture();
    await f.zeroTrust.set(zeroTrustUserSubject(f.alice.id), "ALLOW", { source: "admin", ttlMs: 3_600_000 });
    f.pipeline.submit(
      f.event("REPEATED_DENIALS", {
        userId: f.alice.id,
        sessionHandle: "handle-of-alice-0001",
        detail: { denials: 5 },
      }),
    );
    await f.pipeline.idle();
    const [latest] = await f.history.recentFor(f.alice.id, 1);
    expect(latest).toMatchObject({ outcome: "NOT_ENFORCED" });
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({ notEnforced: expect.any(String) });
    expect(await f.zeroTrust.get("session:handle-of-alice-0001")).toBeUndefined();
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({
      action: "ALLOW",
      source: "admin",
    });
  });

  it("never lowers a live BLOCK, its own included: a blocked user's retried sign-in cannot talk it down", async () => {
    const f = await pipelineFixture();
    await f.zeroTrust.set(zeroTrustUserSubject(f.alice.id), "BLOCK", { source: DECISION_PIPELINE_SOURCE });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    expect(f.pipeline.stats().decided).toBe(1);
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({
      action: "BLOCK",
      source: DECISION_PIPELINE_SOURCE,
    });
  });

  it("never lowers its own live ESCALATE or CHALLENGE: a sign-in from a new network cannot trade review for a step-up", async () => {
    const f = await pipelineFixture();
    const subject = zeroTrustUserSubject(f.alice.id);
    await f.zeroTrust.set(subject, "ESCALATE", { source: DECISION_PIPELINE_SOURCE, reason: "denials" });
    // The analyst decides alice from this external address CHALLENGE: milder, so it is not written.
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { remoteAddress: "198.51.100.9" }));
    await f.pipeline.idle();
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({ action: "CHALLENGE" });
    expect(await f.zeroTrust.get(subject)).toMatchObject({ action: "ESCALATE", reason: "denials" });
    // A harsher decision still raises it.
    f.pipeline.submit(f.event("REPEATED_DENIALS", ADMIN_DENIAL_BURST));
    await f.pipeline.idle();
    expect((await f.zeroTrust.get(subject))?.action).toBe("BLOCK");
  });

  it("challenges an insider's denial burst on an ordinary resource (the analyst weighs the event itself)", async () => {
    const f = await pipelineFixture();
    const burst = {
      remoteAddress: "10.0.0.5",
      method: "GET",
      target: "/api/orders/7",
      detail: { denials: 5 },
    };
    f.pipeline.submit(f.event("REPEATED_DENIALS", burst));
    await f.pipeline.idle();
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({
      action: "CHALLENGE",
      reasons: expect.arrayContaining(["RISKY_BEHAVIOUR_EVENT"]),
    });
    // The same request as a sign-in's context is no risky behaviour: ALLOW.
    const bob = await f.users.create({ username: "bob@example.com" });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { ...burst, userId: bob.id }));
    await f.pipeline.idle();
    expect(f.auditOf("decision.made")[1]!.data).toMatchObject({ action: "ALLOW" });
  });

  it("drops an event naming no known user, audited", async () => {
    const f = await pipelineFixture();
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { userId: "nobody" }));
    await f.pipeline.idle();
    expect(f.auditOf("decision.dropped")).toMatchObject([{ data: { reason: "unknown-user" } }]);
    expect(f.maker.requests).toEqual([]);
  });
});
