import { describe, expect, it } from "vitest";
import { authzPlugin } from "../../authz/authz-plugin.js";
import { ZeroTrustActionResolver } from "../../authz/zerotrust/zero-trust-action-resolver.js";
import { ZeroTrustActionService } from "../../authz/zerotrust/zero-trust-action-service.js";
import { user } from "../../authz/zerotrust/zero-trust.fixture.js";
import { InMemoryUserRepository } from "../../identity/users/in-memory-user-repository.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { Clock } from "../../kernel/clock.js";
import { EventBus } from "../../kernel/event-bus.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { createPlatform } from "../../kernel/platform.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { SealedEvidenceStore } from "../evidence/sealed-evidence-store.js";
import { DecisionHistoryStore } from "../history/decision-history-store.js";
import { RecordingDecisionMaker } from "./decision-pipeline.fixture.js";
import { DecisionMaker } from "./decision-maker.js";
import { DecisionPipeline } from "./decision-pipeline.js";
import { decisionsPipelinePlugin } from "./decisions-pipeline-plugin.js";

const adaptiveProperties: PlatformPlugin = {
  id: "adaptive-properties",
  properties: ADAPTIVE_PROPERTIES,
  register() {},
};

function platformWith(properties: Record<string, unknown>, maker?: RecordingDecisionMaker) {
  return createPlatform({
    env: {},
    properties,
    plugins: [adaptiveProperties, decisionsPipelinePlugin, authzPlugin],
    overrides: (o) => {
      o.override(UserRepository, {
        useFactory: (c) =>
          new InMemoryUserRepository({ ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
      });
      if (maker) o.override(DecisionMaker, { useValue: maker });
    },
  });
}

describe("decisionsPipelinePlugin", () => {
  it("refuses to start without a DecisionMaker, naming it", async () => {
    const platform = platformWith({});
    await expect(platform.start()).rejects.toMatchObject({
      message: expect.stringContaining("DecisionMaker"),
    });
  });

  it("starts without a DecisionMaker when the kill switch is off", async () => {
    const platform = platformWith({ "platform.security.decision.enabled": false });
    await platform.start();
    await platform.stop();
  });

  it("registers its defaults and decides what the bus and zero trust signal", async () => {
    // The pipeline plugin alone, with a host's DecisionMaker (here the engine over the analyst).
    const maker = new RecordingDecisionMaker();
    const platform = platformWith({}, maker);
    await platform.start();
    const users = platform.resolve(UserRepository);
    const alice = await users.create({ username: "alice" });
    const bob = await users.create({ username: "bob" });
    const pipeline = platform.resolve(DecisionPipeline);

    // A lockout, as the MFA runtime reports it (the step's state change to MFA_ACCOUNT_LOCKED is no event).
    await platform.resolve(EventBus).publish("mfa.ErrorEvent", {
      type: "ErrorEvent",
      errorType: "LIMIT_EXCEEDED",
      code: "ACCOUNT_LOCKED",
      userId: alice.id,
    });
    await platform.resolve(ZeroTrustActionResolver).resolve({ authentication: user(bob.id, "bob") });
    await pipeline.idle();

    const zeroTrust = platform.resolve(ZeroTrustActionService);
    // Neither event carries an address: the analyst reads a new account (0.15, ALLOW), and for alice's
    // lockout the risky behaviour too (0.4, CHALLENGE).
    expect(await zeroTrust.get(`user:${alice.id}`)).toMatchObject({
      action: "CHALLENGE",
      source: "ai-decision",
    });
    expect(await zeroTrust.get(`user:${bob.id}`)).toMatchObject({ action: "ALLOW", source: "ai-decision" });
    expect(maker.requests.map((r) => r.event.kind)).toEqual(["MFA_LOCKOUT", "REQUEST_SAMPLED"]);
    const evidence = platform.resolve(SealedEvidenceStore);
    expect((await evidence.recentRecords(10)).map((r) => r.sealed)).toEqual([true, true]);
    const [chain] = await evidence.chains();
    expect(await evidence.entries(chain!, 0, 10)).toHaveLength(2);
    expect(await platform.resolve(DecisionHistoryStore).recentFor(alice.id, 5)).toHaveLength(1);
    await platform.stop();
  });

  it("records but seals nothing in an Enterprise installation", async () => {
    const platform = platformWith({ "platform.enterprise.enabled": true }, new RecordingDecisionMaker());
    await platform.start();
    const alice = await platform.resolve(UserRepository).create({ username: "alice" });
    await platform.resolve(EventBus).publish("mfa.ErrorEvent", {
      type: "ErrorEvent",
      errorType: "LIMIT_EXCEEDED",
      code: "ACCOUNT_LOCKED",
      userId: alice.id,
    });
    await platform.resolve(DecisionPipeline).idle();
    const evidence = platform.resolve(SealedEvidenceStore);
    expect((await evidence.recentRecords(10)).map((r) => r.sealed)).toEqual([false]);
    expect(await evidence.chains()).toEqual([]);
    await platform.stop();
  });
});
