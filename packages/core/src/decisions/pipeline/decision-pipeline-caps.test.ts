import { describe, expect, it } from "vitest";
import { zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import {
  ADMIN_DENIAL_BURST,
  pipelineFixture,
  RecordingDecisionMaker,
  until,
} from "./decision-pipeline.fixture.js";
import { DECISION_PIPELINE_SOURCE } from "./decisions-audit.js";

// The model-call caps must not become a way out of being decided: one user flooding sign-ins must
// neither starve other users nor spend the calls their own risky behaviour needs. Every decision is
// the real model side's (the layered engine over the offline analyst); calls per decision are read
// from the pipeline's counters, never assumed.

/** Decides one sign-in of a throwaway user and returns the model calls one such decision costs. */
async function callsPerSignIn(f: Awaited<ReturnType<typeof pipelineFixture>>): Promise<number> {
  const probe = await f.users.create({ username: `probe-${f.clock.now()}@example.com` });
  const before = f.pipeline.stats().modelCalls.minute;
  f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { userId: probe.id }));
  await f.pipeline.idle();
  return f.pipeline.stats().modelCalls.minute - before;
}

describe("DecisionPipeline caps: a sign-in flood is not a way out", () => {
  it("decides a user's sign-ins from one address once within redecide-after, and again from a new address", async () => {
    const f = await pipelineFixture();
    for (let i = 0; i < 70; i++) {
      f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
      await f.pipeline.idle();
      f.clock.advance(1_000);
    }
    expect(f.maker.requests).toHaveLength(1);
    expect(f.pipeline.stats().recentDecisionKept).toBe(69);
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { remoteAddress: "198.51.100.7" }));
    await f.pipeline.idle();
    expect(f.maker.requests).toHaveLength(2);
    f.clock.advance(600_000); // redecide-after (10 min) passed since the last decision
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { remoteAddress: "198.51.100.7" }));
    await f.pipeline.idle();
    expect(f.maker.requests).toHaveLength(3);
  });

  it("counts an IPv6 /64 as one network, and decides every sign-in when redecide-after is 0", async () => {
    const f = await pipelineFixture();
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { remoteAddress: "2001:db8:0:1::10" }));
    await f.pipeline.idle();
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { remoteAddress: "2001:db8:0:1::ffff" }));
    await f.pipeline.idle();
    expect(f.maker.requests).toHaveLength(1);
    const g = await pipelineFixture({ "platform.security.decision.redecide-after": 0 });
    for (let i = 0; i < 3; i++) {
      g.pipeline.submit(g.event("SIGN_IN_COMPLETED"));
      await g.pipeline.idle();
    }
    expect(g.maker.requests).toHaveLength(3);
  });

  it("decides repeated denials even right after a sign-in decision from the same address", async () => {
    const f = await pipelineFixture();
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    f.pipeline.submit(f.event("REPEATED_DENIALS", { detail: { denials: 5, windowSeconds: 60 } }));
    await f.pipeline.idle();
    expect(f.maker.requests.map((r) => r.event.kind)).toEqual(["SIGN_IN_COMPLETED", "REPEATED_DENIALS"]);
  });

  it("decides one user's events past calls-per-user-per-minute in process; other users still get the model", async () => {
    const f = await pipelineFixture({ "platform.security.decision.redecide-after": 0 });
    const per = await callsPerSignIn(f);
    const g = await pipelineFixture({
      "platform.security.decision.redecide-after": 0,
      "platform.security.decision.calls-per-user-per-minute": 2 * per,
    });
    for (let i = 0; i < 5; i++) {
      g.pipeline.submit(g.event("SIGN_IN_COMPLETED", { remoteAddress: `198.51.100.${i + 1}` }));
      await g.pipeline.idle();
    }
    expect(g.maker.requests).toHaveLength(2);
    expect(g.fallback.requests).toHaveLength(3);
    expect(g.pipeline.stats()).toMatchObject({ decided: 5, fellBack: { "user-cap": 3 } });
    expect(g.auditOf("decision.made")[2]!.data).toMatchObject({
      model: "builtin:offline-analyst/1",
      fallback: expect.stringContaining("DECISION_MODEL_CAPPED: the user-cap"),
    });
    const bob = await g.users.create({ username: "bob@example.com" });
    g.pipeline.submit(g.event("SIGN_IN_COMPLETED", { userId: bob.id }));
    await g.pipeline.idle();
    expect(g.maker.requests).toHaveLength(3);
    g.clock.advance(60_000);
    g.pipeline.submit(g.event("SIGN_IN_COMPLETED", { remoteAddress: "198.51.100.99" }));
    await g.pipeline.idle();
    expect(g.maker.requests).toHaveLength(4); // a new minute, a new budget
  });

  it("holds one user's high-severity events to the per-user cap too, so one account cannot spend the reserve", async () => {
    const f = await pipelineFixture({ "platform.security.decision.calls-per-user-per-minute": 4 });
    for (let i = 0; i < 20; i++) {
      f.pipeline.submit(f.event("MFA_FAILURE"));
      await f.pipeline.idle();
    }
    expect(f.maker.requests.length).toBeLessThanOrEqual(4);
    expect(f.maker.requests.length + f.fallback.requests.length).toBe(20);
    const bob = await f.users.create({ username: "bob@example.com" });
    f.pipeline.submit(f.event("MFA_FAILURE", { userId: bob.id, remoteAddress: "10.0.0.5" }));
    await f.pipeline.idle();
    expect(f.maker.requests.at(-1)?.event.userId).toBe(bob.id);
  });

  it("keeps the high-severity reserve: routine events stop short of the cap, a denial burst still gets the model", async () => {
    const f = await pipelineFixture();
    const per = await callsPerSignIn(f);
    // A cap of 4 decisions' calls, a quarter of it reserved: routine events get the model three times.
    const g = await pipelineFixture({
      "platform.security.decision.calls-per-minute": 4 * per,
      "platform.security.decision.high-severity-reserve": 0.25,
    });
    for (let i = 0; i < 6; i++) {
      const user = await g.users.create({ username: `u${i}@example.com` });
      g.pipeline.submit(g.event("SIGN_IN_COMPLETED", { userId: user.id }));
      await g.pipeline.idle();
    }
    expect(g.maker.requests).toHaveLength(3);
    expect(g.pipeline.stats().fellBack["rate-cap"]).toBe(3);
    g.pipeline.submit(g.event("REPEATED_DENIALS", { detail: { denials: 5, windowSeconds: 60 } }));
    await g.pipeline.idle();
    expect(g.maker.requests.at(-1)?.event.kind).toBe("REPEATED_DENIALS");
  });
});

describe("DecisionPipeline caps: over every cap, every event is still decided", () => {
  it("decides a sign-in and a denial burst in process, with no model call, when every call is spent", async () => {
    const f = await pipelineFixture({
      "platform.security.decision.calls-per-minute": 0,
      "platform.security.decision.calls-per-day": 0,
    });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    expect(f.maker.requests).toEqual([]);
    // The analyst's own answer for alice from an external network: CHALLENGE, as with the model.
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({
      action: "CHALLENGE",
      source: DECISION_PIPELINE_SOURCE,
    });
    f.pipeline.submit(f.event("REPEATED_DENIALS", ADMIN_DENIAL_BURST));
    await f.pipeline.idle();
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).toBe("BLOCK");
    expect(f.auditOf("decision.made").map((e) => e.data?.fallback)).toEqual([
      expect.stringContaining("DECISION_MODEL_CAPPED: the cost-cap"),
      expect.stringContaining("DECISION_MODEL_CAPPED: the cost-cap"),
    ]);
    expect(f.pipeline.stats()).toMatchObject({
      decided: 2,
      dropped: { "queue-full": 0, "unknown-user": 0 },
      fellBack: { "cost-cap": 2 },
      modelCalls: { minute: 0, day: 0 },
    });
  });
});

describe("DecisionPipeline: one decision per user at a time", () => {
  it("defers a denial burst that arrives while the user's sign-in waits, and decides it right after", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.holding = true;
    const f = await pipelineFixture({}, maker);
    expect(f.pipeline.submit(f.event("SIGN_IN_COMPLETED"))).toBe("queued");
    await until(() => maker.requests.length === 1);
    expect(f.pipeline.submit(f.event("REPEATED_DENIALS", ADMIN_DENIAL_BURST))).toBe("deferred");
    expect(f.pipeline.submit(f.event("SIGN_IN_COMPLETED"))).toBe("coalesced");
    maker.gate.release();
    await f.pipeline.idle();
    expect(maker.requests.map((r) => r.event.kind)).toEqual(["SIGN_IN_COMPLETED", "REPEATED_DENIALS"]);
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).toBe("BLOCK");
    expect(f.pipeline.stats()).toMatchObject({ deferred: 1, coalesced: 1, decided: 2 });
  });

  it("decides in process when the configured model is too slow, and only then takes the user's next event", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.mode = "hang";
    const f = await pipelineFixture({ "platform.security.decision.timeout": 20 }, maker);
    f.pipeline.submit(f.event("REPEATED_DENIALS", { detail: { denials: 5, windowSeconds: 60 } }));
    await f.pipeline.idle();
    await until(() => f.auditOf("decision.made").length === 1);
    expect(f.auditOf("decision.failed")[0]).toMatchObject({ data: { reason: "timeout" } });
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({
      model: "builtin:offline-analyst/1",
      fallback: expect.stringContaining("DECISION_TIMEOUT"),
    });
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).not.toBe("PENDING_ANALYSIS");
    expect(f.pipeline.stats().fellBack.timeout).toBe(1);
  });
});

describe("DecisionPipeline: the pending marker never replaces a decision in force", () => {
  it("keeps the pipeline's own CHALLENGE while a new sign-in waits for its decision", async () => {
    const maker = new RecordingDecisionMaker();
    const f = await pipelineFixture({}, maker);
    await f.zeroTrust.set(zeroTrustUserSubject(f.alice.id), "CHALLENGE", {
      source: DECISION_PIPELINE_SOURCE,
      reason: "an earlier decision",
    });
    maker.gate.holding = true;
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED", { remoteAddress: "198.51.100.7" }));
    await until(() => maker.requests.length === 1);
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).toBe("CHALLENGE");
    maker.gate.release();
    await f.pipeline.idle();
  });

  it("marks a user with no record PENDING_ANALYSIS while the decision waits", async () => {
    const maker = new RecordingDecisionMaker();
    maker.gate.holding = true;
    const f = await pipelineFixture({}, maker);
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await until(() => maker.requests.length === 1);
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).toBe("PENDING_ANALYSIS");
    maker.gate.release();
    await f.pipeline.idle();
    expect((await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id)))?.action).not.toBe("PENDING_ANALYSIS");
  });
});
