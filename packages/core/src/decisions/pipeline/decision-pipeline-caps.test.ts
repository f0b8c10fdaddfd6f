import { describe, expect, it } from "vitest";
import { zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import { pipelineFixture, RecordingDecisionMaker, until } from "./decision-pipeline.fixture.js";
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

  it("stops one user's routine events at calls-per-user-per-minute; other users are still decided", async () => {
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
    expect(g.pipeline.stats().dropped["user-cap"]).toBe(3);
    expect(g.auditOf("decision.dropped")[0]).toMatchObject({ data: { reason: "user-cap" } });
    const bob = await g.users.create({ username: "bob@example.com" });
    g.pipeline.submit(g.event("SIGN_IN_COMPLETED", { userId: bob.id }));
    await g.pipeline.idle();
    expect(g.maker.requests).toHaveLength(3);
    g.clock.advance(60_000);
    g.pipeline.submit(g.event("SIGN_IN_COMPLETED", { remoteAddress: "198.51.100.99" }));
    await g.pipeline.idle();
    expect(g.maker.requests).toHaveLength(4); // a new minute, a new budget
  });

  it("keeps the high-severity reserve: routine events stop short of the cap, a denial burst is still asked", async () => {
    const f = await pipelineFixture();
    const per = await callsPerSignIn(f);
    // A cap of 4 decisions' calls, a quarter of it reserved: routine events stop after three.
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
    expect(g.pipeline.stats().dropped["rate-cap"]).toBe(3);
    g.pipeline.submit(g.event("REPEATED_DENIALS", { detail: { denials: 5, windowSeconds: 60 } }));
    await g.pipeline.idle();
    expect(g.maker.requests.at(-1)?.event.kind).toBe("REPEATED_DENIALS");
    expect(g.pipeline.stats().capped).toBe(0);
  });

  it("leaves a user whose routine event was dropped for a cap PENDING_ANALYSIS, never cleared", async () => {
    const f = await pipelineFixture({ "platform.security.decision.calls-per-minute": 0 });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    expect(f.maker.requests).toEqual([]);
    expect(f.pipeline.stats().dropped["rate-cap"]).toBe(1);
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({
      action: "PENDING_ANALYSIS",
      source: DECISION_PIPELINE_SOURCE,
    });
  });
});

describe("DecisionPipeline caps: a risky event over a cap is still decided", () => {
  it("writes the recorded fallback (ESCALATE, no score, no prompt) for a denial burst over every cap", async () => {
    const f = await pipelineFixture({
      "platform.security.decision.calls-per-minute": 0,
      "platform.security.decision.calls-per-day": 0,
    });
    f.pipeline.submit(f.event("REPEATED_DENIALS", { detail: { denials: 5, windowSeconds: 60 } }));
    await f.pipeline.idle();
    expect(f.maker.requests).toEqual([]);
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({
      action: "ESCALATE",
      source: DECISION_PIPELINE_SOURCE,
    });
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({
      eventKind: "REPEATED_DENIALS",
      action: "ESCALATE",
      riskScore: null,
      confidence: 0,
      fallback: expect.stringContaining("DECISION_MODEL_CAPPED: the cost-cap"),
    });
    expect((await f.history.recentFor(f.alice.id, 1))[0]).toMatchObject({ action: "ESCALATE" });
    expect((await f.evidence.recent(1))[0]!.prompts).toEqual([]);
    expect(f.pipeline.stats()).toMatchObject({ capped: 1, decided: 1, modelCalls: { minute: 0, day: 0 } });
  });

  it("decides an MFA lockout by the fallback when others spent the minute's calls", async () => {
    const f = await pipelineFixture();
    const per = await callsPerSignIn(f);
    const g = await pipelineFixture({ "platform.security.decision.calls-per-minute": per });
    const bob = await g.users.create({ username: "bob@example.com" });
    g.pipeline.submit(g.event("MFA_FAILURE", { userId: bob.id }));
    await g.pipeline.idle();
    g.pipeline.submit(g.event("MFA_LOCKOUT"));
    await g.pipeline.idle();
    expect(g.maker.requests).toHaveLength(1);
    expect(g.auditOf("decision.made").map((e) => e.data?.eventKind)).toEqual(["MFA_FAILURE", "MFA_LOCKOUT"]);
    expect(g.auditOf("decision.made")[1]!.data).toMatchObject({
      fallback: expect.stringContaining("rate-cap"),
    });
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
