import { describe, expect, it } from "vitest";
import { context, providerFixture, scoring } from "./ai-adaptive-mfa-policy-provider.test-support.js";

const ADMIN = ["ROLE_USER", "ROLE_ADMIN"];

describe("AIAdaptiveMfaPolicyProvider: never weaker than the static rule (issue #12 item 4)", () => {
  it.each([0, 0.1, 0.29, 0.3, 0.49])(
    "challenges a holder of a required authority at a low score (%s)",
    async (score) => {
      const { provider } = providerFixture({ analyzer: scoring(score) });
      const decision = await provider.evaluateInitialMfaRequirement(context({}, ["OTT"], 1, ADMIN));
      expect(decision.type).toBe("CHALLENGED");
      expect(decision.reason).toMatch(/; floor: role ROLE_ADMIN always gets at least a challenge$/);
    },
  );

  it("offers the user's usable factors at the floor, and blocks when none is usable", async () => {
    const usable = providerFixture({ analyzer: scoring(0.1), availableFactors: async () => ["OTT"] });
    const challenged = await usable.provider.evaluateInitialMfaRequirement(
      context({}, ["OTT", "PASSKEY"], 1, ADMIN),
    );
    expect(challenged).toMatchObject({ type: "CHALLENGED", factors: ["OTT"] });
    const none = providerFixture({ analyzer: scoring(0.1), availableFactors: async () => [] });
    expect((await none.provider.evaluateInitialMfaRequirement(context({}, ["OTT"], 1, ADMIN))).type).toBe(
      "BLOCKED",
    );
  });

  it("leaves other users' low scores alone and the higher bands unchanged", async () => {
    const low = providerFixture({ analyzer: scoring(0.1) });
    expect((await low.provider.evaluateInitialMfaRequirement(context())).type).toBe("NO_MFA_REQUIRED");
    const strict = providerFixture({ analyzer: scoring(0.95) });
    expect((await strict.provider.evaluateInitialMfaRequirement(context({}, ["OTT"], 1, ADMIN))).type).toBe(
      "ESCALATED",
    );
  });

  it("with allow-skip-for-required-authorities on, a low score lets the admin skip MFA (the documented risk)", async () => {
    const { provider, events } = providerFixture({
      analyzer: scoring(0.1),
      allowSkipForRequiredAuthorities: true,
    });
    const decision = await provider.evaluateInitialMfaRequirement(context({}, ["OTT"], 1, ADMIN));
    expect(decision.type).toBe("NO_MFA_REQUIRED");
    expect(events.at(-1)).toMatchObject({ payload: { decision: "NO_MFA_REQUIRED", band: "skip" } });
  });

  it("passes the X-Device-Id hint to the analyzer apart from the verified device id", async () => {
    const analyzer = scoring(0.1);
    const { provider } = providerFixture({ analyzer });
    await provider.evaluateInitialMfaRequirement(context({ deviceId: undefined, deviceHint: "laptop" }));
    expect(
      (analyzer.analyze as unknown as { mock: { calls: unknown[][] } }).mock.calls[0]?.[0],
    ).toMatchObject({
      deviceId: undefined,
      deviceHint: "laptop",
    });
  });
});
