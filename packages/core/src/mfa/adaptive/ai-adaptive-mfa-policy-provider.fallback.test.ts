import { describe, expect, it } from "vitest";
import type { AdaptiveFallbackReason } from "./ai-adaptive-mfa-policy-provider.js";
import {
  answering,
  context,
  FALLBACK_DECISION,
  type ProviderFixture,
  providerFixture,
  T0,
} from "./ai-adaptive-mfa-policy-provider.test-support.js";
import type { RiskAnalyzer, RiskAssessment } from "./risk-analyzer.js";
import type { SignInHistoryStore } from "./sign-in-history-store.js";

/** Asserts the decision came from the fallback and the why was published and audited. */
function expectFallback(f: ProviderFixture, reason: AdaptiveFallbackReason): void {
  expect(f.fallback.evaluateInitialMfaRequirement).toHaveBeenCalledTimes(1);
  expect(f.events).toEqual([{ type: "mfa.adaptive.fallback", payload: { reason, userId: "u1" } }]);
  const audited = f.audit.events();
  expect(audited).toHaveLength(1);
  expect(audited[0]).toMatchObject({
    type: "auth.mfa.adaptive-fallback",
    at: T0,
    principal: "alice",
    remoteAddress: "203.0.113.7",
    outcome: reason === "absent" ? "info" : "failure",
    data: { reason, userId: "u1" },
  });
}

function activeTimeouts(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}

const never: RiskAnalyzer = { analyze: () => new Promise<RiskAssessment>(() => {}) };

describe("AIAdaptiveMfaPolicyProvider fallback", () => {
  it("falls back when no analyzer is registered (absent)", async () => {
    const f = providerFixture({ analyzer: undefined });
    const ctx = context();
    expect(await f.provider.evaluateInitialMfaRequirement(ctx)).toBe(FALLBACK_DECISION);
    expect(f.fallback.evaluateInitialMfaRequirement).toHaveBeenCalledWith(ctx);
    expectFallback(f, "absent");
    expect(f.logger.lines.map((l) => l.level)).toEqual(["warn"]);
  });

  it("falls back when the analyzer rejects, throws synchronously, or the history store fails (error)", async () => {
    const failing: RiskAnalyzer[] = [
      { analyze: async () => Promise.reject(new Error("model down")) },
      {
        analyze: () => {
          throw new Error("model down");
        },
      },
    ];
    for (const analyzer of failing) {
      const f = providerFixture({ analyzer });
      expect(await f.provider.evaluateInitialMfaRequirement(context())).toBe(FALLBACK_DECISION);
      expectFallback(f, "error");
      const warn = f.logger.lines.find((l) => l.level === "warn");
      expect(warn?.fields).toMatchObject({ reason: "error", userId: "u1", error: "Error: model down" });
    }
    const brokenHistory: SignInHistoryStore = {
      historyOf: async () => {
        throw new Error("db down");
      },
      recordSuccess: async () => {},
      recordFailure: async () => {},
    };
    const f = providerFixture({
      analyzer: answering({ score: 0, signals: [], analyzer: "x" }),
      history: brokenHistory,
    });
    await f.provider.evaluateInitialMfaRequirement(context());
    expectFallback(f, "error");
  });

  it("falls back within about timeoutMs when the analyzer never answers (timeout), leaving no timer", async () => {
    let seen: AbortSignal | undefined;
    const hanging: RiskAnalyzer = {
      analyze: (_input, signal) => {
        seen = signal;
        return new Promise<RiskAssessment>(() => {});
      },
    };
    const f = providerFixture({ analyzer: hanging, timeoutMs: 20 });
    const before = activeTimeouts();
    const started = performance.now();
    expect(await f.provider.evaluateInitialMfaRequirement(context())).toBe(FALLBACK_DECISION);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(18);
    expect(elapsed).toBeLessThan(250);
    expectFallback(f, "timeout");
    expect(f.audit.events()[0]?.data).toMatchObject({ timeoutMs: 20 });
    expect(seen?.aborted).toBe(true);
    expect(activeTimeouts()).toBe(before);
  });

  it("applies the budget to a history store that hangs too", async () => {
    const hangingHistory: SignInHistoryStore = {
      historyOf: () => new Promise(() => {}),
      recordSuccess: async () => {},
      recordFailure: async () => {},
    };
    const f = providerFixture({ analyzer: never, history: hangingHistory, timeoutMs: 20 });
    await f.provider.evaluateInitialMfaRequirement(context());
    expectFallback(f, "timeout");
  });

  it("clears the timer when the analyzer answers in time", async () => {
    const f = providerFixture({
      analyzer: answering({ score: 0.1, signals: [], analyzer: "x" }),
      timeoutMs: 60_000,
    });
    const before = activeTimeouts();
    await f.provider.evaluateInitialMfaRequirement(context());
    expect(activeTimeouts()).toBe(before);
  });

  it("swallows an analyzer's rejection that arrives after the timeout", async () => {
    const late: RiskAnalyzer = {
      analyze: () =>
        new Promise<RiskAssessment>((_resolve, reject) => {
          setTimeout(() => reject(new Error("too late")), 40);
        }),
    };
    const f = providerFixture({ analyzer: late, timeoutMs: 10 });
    await f.provider.evaluateInitialMfaRequirement(context());
    expectFallback(f, "timeout");
    // An unhandled rejection here would fail the run.
    await new Promise((resolve) => setTimeout(resolve, 60));
  });

  it("falls back on a score that is not a finite number in [0, 1] (invalid)", async () => {
    const answers: unknown[] = [
      { score: Number.NaN, signals: [], analyzer: "x" },
      { score: -0.01, signals: [], analyzer: "x" },
      { score: 1.01, signals: [], analyzer: "x" },
      { score: Number.POSITIVE_INFINITY, signals: [], analyzer: "x" },
      { score: "0.5", signals: [], analyzer: "x" },
      { signals: [], analyzer: "x" },
      null,
      undefined,
      0.5,
    ];
    for (const answer of answers) {
      const f = providerFixture({ analyzer: answering(answer) });
      expect(await f.provider.evaluateInitialMfaRequirement(context()), String(answer)).toBe(
        FALLBACK_DECISION,
      );
      expectFallback(f, "invalid");
    }
  });

  it("records why before asking the fallback, and lets the fallback's error propagate", async () => {
    const f = providerFixture({ analyzer: undefined });
    f.fallback.evaluateInitialMfaRequirement.mockRejectedValueOnce(new Error("db down"));
    await expect(f.provider.evaluateInitialMfaRequirement(context())).rejects.toThrow("db down");
    expect(f.events.map((e) => e.type)).toEqual(["mfa.adaptive.fallback"]);
    expect(f.audit.events().map((e) => e.type)).toEqual(["auth.mfa.adaptive-fallback"]);
  });
});
