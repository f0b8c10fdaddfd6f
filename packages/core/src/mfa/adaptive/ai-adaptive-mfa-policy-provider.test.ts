import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { AIAdaptiveMfaPolicyProvider } from "./ai-adaptive-mfa-policy-provider.js";
import {
  answering,
  context,
  FALLBACK_DECISION,
  providerFixture,
  RecordingLogger,
  scoring,
  T0,
} from "./ai-adaptive-mfa-policy-provider.test-support.js";
import { HeuristicRiskAnalyzer } from "./heuristic-risk-analyzer.js";
import { InMemorySignInHistoryStore } from "./in-memory-sign-in-history-store.js";
import { RISK_THRESHOLDS_DEFAULTS } from "./risk-thresholds.js";

describe("AIAdaptiveMfaPolicyProvider score mapping", () => {
  const cases: [number, string, string][] = [
    [0, "NO_MFA_REQUIRED", "skip: very low risk (score 0 < skip 0.3"],
    [0.2999, "NO_MFA_REQUIRED", "skip: very low risk (score 0.2999 < skip 0.3"],
    [0.3, "NO_MFA_REQUIRED", "optional: low risk (score 0.3 < optional 0.5"],
    [0.4999, "NO_MFA_REQUIRED", "optional: low risk (score 0.4999 < optional 0.5"],
    [0.5, "CHALLENGED", "elevated: moderate risk (score 0.5 >= optional 0.5"],
    [0.6999, "CHALLENGED", "elevated: moderate risk (score 0.6999 >= optional 0.5"],
    [0.7, "CHALLENGED", "required: high risk (score 0.7 >= required 0.7"],
    [0.8999, "CHALLENGED", "required: high risk (score 0.8999 >= required 0.7"],
    [0.9, "ESCALATED", "strict: very high risk, administrator review (score 0.9 >= strict 0.9"],
    [1, "ESCALATED", "strict: very high risk, administrator review (score 1 >= strict 0.9"],
  ];
  for (const [score, type, reason] of cases) {
    it(`maps ${score} to ${type}`, async () => {
      const f = providerFixture({ analyzer: scoring(score) });
      const decision = await f.provider.evaluateInitialMfaRequirement(context());
      expect(decision.type).toBe(type);
      expect(decision.reason).toBe(`${reason}; stub: no signals)`);
      expect(f.fallback.evaluateInitialMfaRequirement).not.toHaveBeenCalled();
    });
  }

  it("quotes the three heaviest signals in the reason", async () => {
    const f = providerFixture({
      analyzer: scoring(0.75, [
        { name: "unusual-hour", weight: 0.15 },
        { name: "new-device", weight: 0.35, detail: "device not seen before" },
        { name: "zero", weight: 0 },
        { name: "new-network", weight: 0.25 },
        { name: "failed-attempts", weight: 0.08 },
      ]),
    });
    const decision = await f.provider.evaluateInitialMfaRequirement(context());
    expect(decision).toEqual({
      type: "CHALLENGED",
      reason:
        "required: high risk (score 0.75 >= required 0.7; stub: new-device 0.35, new-network 0.25, unusual-hour 0.15)",
    });
  });

  it("publishes mfa.adaptive.assessed and audits the assessment", async () => {
    const signals = [{ name: "new-device", weight: 0.35 }];
    const f = providerFixture({ analyzer: scoring(0.6, signals) });
    await f.provider.evaluateInitialMfaRequirement(context());
    expect(f.events).toEqual([
      {
        type: "mfa.adaptive.assessed",
        payload: {
          userId: "u1",
          score: 0.6,
          band: "elevated",
          decision: "CHALLENGED",
          analyzer: "stub",
          signals,
        },
      },
    ]);
    expect(f.audit.events()).toEqual([
      {
        type: "auth.mfa.adaptive-assessed",
        at: T0,
        outcome: "info",
        principal: "alice",
        remoteAddress: "203.0.113.7",
        data: {
          userId: "u1",
          score: 0.6,
          band: "elevated",
          decision: "CHALLENGED",
          analyzer: "stub",
          signals: ["new-device"],
        },
      },
    ]);
  });

  it("asks the analyzer with the request, the user, the clock's time, the history and a signal", async () => {
    const clock = { now: () => T0 };
    const history = new InMemorySignInHistoryStore({ clock });
    await history.recordFailure({ userId: "u1", at: T0 });
    const analyzer = answering({ score: 0, signals: [], analyzer: "stub" });
    const f = providerFixture({ analyzer, history });
    await f.provider.evaluateInitialMfaRequirement(context({ deviceId: undefined }));
    const [input, signal] = analyzer.analyze.mock.calls[0] ?? [];
    expect(input).toEqual({
      userId: "u1",
      username: "alice",
      remoteAddress: "203.0.113.7",
      deviceId: undefined,
      userAgent: "Firefox/1",
      at: T0,
      history: await history.historyOf("u1"),
    });
    expect(input.history.recentFailures).toBe(1);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
  });

  it("keeps only well-formed signals and cuts their text", async () => {
    const f = providerFixture({
      analyzer: answering({
        score: 0.2,
        analyzer: 42,
        signals: [
          null,
          "x",
          { name: "", weight: 1 },
          { name: "w", weight: Number.NaN },
          { name: "n".repeat(500), weight: 0.1, detail: 7 },
        ],
      }),
    });
    await f.provider.evaluateInitialMfaRequirement(context());
    const payload = f.events[0]?.payload as { analyzer: string; signals: { name: string }[] };
    expect(payload.analyzer).toBe("unknown");
    expect(payload.signals).toEqual([{ name: "n".repeat(200), weight: 0.1 }]);
  });

  it("narrows a challenge to the user's available factors and blocks when none is usable", async () => {
    const withOtt = providerFixture({ analyzer: scoring(0.6), availableFactors: async () => ["OTT"] });
    expect((await withOtt.provider.evaluateInitialMfaRequirement(context())).factors).toEqual(["OTT"]);
    const none = providerFixture({ analyzer: scoring(0.6), availableFactors: async () => [] });
    const blocked = await none.provider.evaluateInitialMfaRequirement(context());
    expect(blocked.type).toBe("BLOCKED");
    expect(blocked.reason).toMatch(/; no usable factor$/);
    const tooFew = providerFixture({ analyzer: scoring(0.8), availableFactors: async () => ["OTT"] });
    const two = await tooFew.provider.evaluateInitialMfaRequirement(context({}, ["OTT", "PASSKEY"], 2));
    expect(two.reason).toMatch(/not enough usable factors: 1 of 2 required$/);
    const low = providerFixture({ analyzer: scoring(0.1), availableFactors: async () => [] });
    expect((await low.provider.evaluateInitialMfaRequirement(context())).type).toBe("NO_MFA_REQUIRED");
  });

  it("refuses thresholds out of order and a timeout that is not positive", () => {
    const codes: string[] = [];
    const base = providerFixture();
    for (const over of [
      { thresholds: { ...RISK_THRESHOLDS_DEFAULTS, skip: 0.6 } },
      { timeoutMs: 0 },
      { timeoutMs: Number.NaN },
    ]) {
      try {
        new AIAdaptiveMfaPolicyProvider({
          analyzer: undefined,
          history: base.history,
          fallback: base.fallback,
          thresholds: RISK_THRESHOLDS_DEFAULTS,
          requiredAuthorities: ["ROLE_ADMIN"],
          timeoutMs: 1_500,
          clock: base.clock,
          events: { on: () => () => {}, publish: async () => {} },
          audit: base.audit,
          logger: new RecordingLogger(),
          ...over,
        });
        codes.push("accepted");
      } catch (error) {
        codes.push(isPlatformError(error) ? error.code : String(error));
      }
    }
    expect(codes).toEqual(["CONFIGURATION_INVALID", "CONFIGURATION_INVALID", "CONFIGURATION_INVALID"]);
  });
});

describe("AIAdaptiveMfaPolicyProvider with the heuristic analyzer", () => {
  it("challenges a first sign-in and lets the usual one through once history is recorded", async () => {
    const f = providerFixture({ analyzer: new HeuristicRiskAnalyzer() });
    const first = await f.provider.evaluateInitialMfaRequirement(context());
    expect(first.type).toBe("CHALLENGED");
    expect(first.reason).toContain("heuristic: no-history 0.5");
    for (let i = 0; i < 3; i++) {
      await f.history.recordSuccess({
        userId: "u1",
        remoteAddress: "203.0.113.9",
        deviceId: "laptop",
        at: T0,
      });
    }
    expect((await f.provider.evaluateInitialMfaRequirement(context())).type).toBe("NO_MFA_REQUIRED");
    const stranger = await f.provider.evaluateInitialMfaRequirement(
      context({ deviceId: "other", remoteAddress: "198.51.100.1" }),
    );
    expect(stranger.type).toBe("CHALLENGED");
    expect(stranger.reason).toContain("new-device 0.35, new-network 0.25");
    expect(f.fallback.evaluateInitialMfaRequirement).not.toHaveBeenCalled();
    expect(FALLBACK_DECISION.type).toBe("CHALLENGED");
  });
});
