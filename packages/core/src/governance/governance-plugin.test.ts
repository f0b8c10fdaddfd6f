import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryPolicyRepository } from "../authz/policy/in-memory-policy-repository.js";
import { PolicyRepository } from "../authz/policy/policy-repository.js";
import { Clock, ManualClock } from "../kernel/clock.js";
import { CryptoIdGenerator } from "../kernel/id-generator.js";
import { createPlatform } from "../kernel/platform.js";
import { promptsPlugin } from "../prompts/prompts-plugin.js";
import { ReleaseEvidenceLedger } from "./evidence/release-evidence-ledger.js";
import { ALICE, BOB, KEY, LedgerKindGate, V19, V20 } from "./governance.fixture.js";
import { promptGovernancePlugin } from "./governance-plugin.js";
import { policySetHashOf } from "./policy-sets/policy-set-hash.js";
import { ReleaseRegistry } from "./registry/release-registry.js";
import { EvidenceGate, ReleaseGovernance } from "./release-governance.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("promptGovernancePlugin", () => {
  it("registers the build at start, records the host's policy set, and runs the deadline job until stop", async () => {
    // Only the intervals are fake: the job's timer, advanced by hand.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const clock = new ManualClock(Date.UTC(2026, 9, 1));
    const policies = new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() });
    const platform = createPlatform({
      plugins: [promptsPlugin, promptGovernancePlugin],
      properties: { "platform.prompt.governance.emergency.check-interval": "PT5S" },
      register: (c) => {
        c.registerInstance(Clock, clock);
        c.registerInstance(PolicyRepository, policies);
      },
      overrides: (o) =>
        o.override(EvidenceGate, { useFactory: (c) => new LedgerKindGate(c.resolve(ReleaseEvidenceLedger)) }),
    });
    await platform.start();
    const head = await platform.resolve(ReleaseRegistry).head("PLATFORM_GLOBAL");
    expect(head.releases.map((r) => [r.promptVersion, r.status])).toEqual([
      [V19, "ACTIVE"],
      [V20, "AVAILABLE"],
    ]);
    expect(head.releases[0]?.policySetHash).toBe(policySetHashOf(await policies.findAll()));
    const governance = platform.resolve(ReleaseGovernance);
    const registry = platform.resolve(ReleaseRegistry);
    // v20 executing, v19 its declared target: an emergency stop back to v19.
    await registry.replaceHead("PLATFORM_GLOBAL", head.revision, {
      releases: head.releases.map((r) => ({
        ...r,
        status: r.promptVersion === V20 ? "ACTIVE" : "DEPRECATED",
      })),
      openExecutions: [],
    });
    const stop = await governance.rollback(
      { promptKey: KEY, fromVersion: V20, toVersion: V19, reason: "stop", emergency: true },
      ALICE,
    );
    expect(stop.status).toBe("AWAITING_APPROVAL");
    clock.advance(86_400_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await governance.releases())[0]?.openExecutions).toMatchObject([{ status: "UNRATIFIED" }]);
    expect((await governance.approve(stop.executionKey, {}, BOB)).status).toBe("RATIFIED");
    await platform.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("does nothing at all when platform.prompt.governance.enabled is false", async () => {
    const platform = createPlatform({
      plugins: [promptsPlugin, promptGovernancePlugin],
      properties: { "platform.prompt.governance.enabled": false },
    });
    expect(platform.container.isRegistered(ReleaseRegistry, true)).toBe(false);
    expect(platform.container.isRegistered(ReleaseGovernance, true)).toBe(false);
    expect(platform.container.isRegistered(ReleaseEvidenceLedger, true)).toBe(false);
  });

  it("needs the prompts plugin before it", () => {
    expect(() => createPlatform({ plugins: [promptGovernancePlugin] })).toThrow(/promptsPlugin/);
  });
});
