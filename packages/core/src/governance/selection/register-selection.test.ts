import { describe, expect, it } from "vitest";
import { authzPlugin } from "../../authz/authz-plugin.js";
import { BundleSelector, ConfigurationBundleSelector } from "../../decisions/pipeline/bundle-selector.js";
import { RecordingDecisionMaker } from "../../decisions/pipeline/decision-pipeline.fixture.js";
import { DecisionMaker } from "../../decisions/pipeline/decision-maker.js";
import { DecisionPipeline } from "../../decisions/pipeline/decision-pipeline.js";
import { decisionsPipelinePlugin } from "../../decisions/pipeline/decisions-pipeline-plugin.js";
import { SealedEvidenceStore } from "../../decisions/evidence/sealed-evidence-store.js";
import { InMemoryUserRepository } from "../../identity/users/in-memory-user-repository.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { Clock } from "../../kernel/clock.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { createPlatform } from "../../kernel/platform.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { promptsPlugin } from "../../prompts/prompts-plugin.js";
import { promptGovernancePlugin } from "../governance-plugin.js";
import { V19 } from "../governance.fixture.js";
import { ReleaseSnapshots } from "./release-snapshots.js";

const adaptiveProperties: PlatformPlugin = {
  id: "adaptive-properties",
  properties: ADAPTIVE_PROPERTIES,
  register() {},
};

function platformWith(properties: Record<string, unknown>, governance = true) {
  return createPlatform({
    env: {},
    properties,
    plugins: [
      adaptiveProperties,
      decisionsPipelinePlugin,
      authzPlugin,
      promptsPlugin,
      ...(governance ? [promptGovernancePlugin] : []),
    ],
    overrides: (o) => {
      o.override(UserRepository, {
        useFactory: (c) =>
          new InMemoryUserRepository({ ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
      });
      o.override(DecisionMaker, { useValue: new RecordingDecisionMaker() });
    },
  });
}

const SELECTOR = "platform.security.tiered.prompt-bundle.selector";

describe("registerSelection in promptGovernancePlugin", () => {
  it("with selector=REGISTRY starts, reads the registry in the background and decides with its release", async () => {
    const platform = platformWith({ [SELECTOR]: "registry" });
    await platform.start();
    const selector = platform.resolve(BundleSelector);
    expect(selector).not.toBeInstanceOf(ConfigurationBundleSelector);
    const snapshots = platform.resolve(ReleaseSnapshots);
    await expect.poll(() => snapshots.current()?.scopes.size).toBe(1);
    const alice = await platform.resolve(UserRepository).create({ username: "alice" });
    const pipeline = platform.resolve(DecisionPipeline);
    pipeline.submit({
      id: "e-1",
      kind: "REPEATED_DENIALS",
      at: Date.now(),
      userId: alice.id,
      detail: { denials: 5 },
    });
    await pipeline.idle();
    const [pkg] = await platform.resolve(SealedEvidenceStore).recentRecords(1);
    expect(pkg?.metadata).toMatchObject({
      bundleVersion: V19,
      selectionSource: "REGISTRY",
      stage: "ENFORCE",
      release: { registryScope: "PLATFORM_GLOBAL", promptVersion: V19, status: "ACTIVE" },
    });
    expect(selector.serving()).toMatchObject([{ promptVersion: V19, source: "REGISTRY" }]);
    await platform.stop();
  });

  it("keeps the configuration selector by default and still registers the release snapshots", () => {
    const platform = platformWith({});
    expect(platform.resolve(BundleSelector)).toBeInstanceOf(ConfigurationBundleSelector);
    expect(platform.container.isRegistered(ReleaseSnapshots, true)).toBe(true);
  });

  it("refuses to start with selector=REGISTRY without promptGovernancePlugin", async () => {
    const platform = platformWith({ [SELECTOR]: "REGISTRY" }, false);
    await expect(platform.start()).rejects.toMatchObject({ code: "CONFIGURATION_INVALID" });
  });
});
