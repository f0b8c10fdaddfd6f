import { describe, expect, it } from "vitest";
import { HeuristicRiskAnalyzer } from "./heuristic-risk-analyzer.js";
import type { RiskInput } from "./risk-analyzer.js";
import type { SignInHistory } from "./sign-in-history.js";

const NINE_UTC = Date.UTC(2026, 0, 1, 9, 15);
const THREE_UTC = Date.UTC(2026, 0, 1, 3, 15);

const known: SignInHistory = {
  knownDevices: ["laptop"],
  knownNetworks: ["203.0.113.0/24", "2001:db8:0:1::/64"],
  recentFailures: 0,
  usualHours: [8, 9, 10],
  signInCount: 12,
};

function input(overrides: Partial<RiskInput> = {}, history: Partial<SignInHistory> = {}): RiskInput {
  return {
    userId: "u1",
    username: "alice",
    remoteAddress: "203.0.113.50",
    deviceId: "laptop",
    userAgent: "Firefox/1",
    at: NINE_UTC,
    history: { ...known, ...history },
    ...overrides,
  };
}

const analyzer = new HeuristicRiskAnalyzer();
const names = (signals: readonly { name: string }[]) => signals.map((s) => s.name);

describe("HeuristicRiskAnalyzer", () => {
  it("scores a sign-in like the usual ones 0 with no signals", async () => {
    expect(await analyzer.analyze(input())).toEqual({ score: 0, signals: [], analyzer: "heuristic" });
    expect((await analyzer.analyze(input({ remoteAddress: "2001:db8:0:1::99" }))).score).toBe(0);
  });

  it("adds 0.35 for a new device, whether unknown or absent", async () => {
    for (const deviceId of ["phone", undefined]) {
      const a = await analyzer.analyze(input({ deviceId }));
      expect(a.score).toBe(0.35);
      expect(names(a.signals)).toEqual(["new-device"]);
    }
  });

  it("adds 0.25 for a new network, or an address that is not an IP", async () => {
    for (const remoteAddress of ["198.51.100.7", "2001:db8:0:2::1", "unknown"]) {
      const a = await analyzer.analyze(input({ remoteAddress }));
      expect(a.score, remoteAddress).toBe(0.25);
      expect(names(a.signals)).toEqual(["new-network"]);
    }
  });

  it("adds 0.08 per recent failure, counting at most 5", async () => {
    const scores = [];
    for (const recentFailures of [1, 2, 5, 9]) {
      scores.push((await analyzer.analyze(input({}, { recentFailures }))).score);
    }
    expect(scores).toEqual([0.08, 0.16, 0.4, 0.4]);
    const a = await analyzer.analyze(input({}, { recentFailures: 9 }));
    expect(a.signals).toEqual([
      { name: "failed-attempts", weight: 0.4, detail: "9 failed sign-ins in 15 minutes" },
    ]);
  });

  it("adds 0.15 for an unusual UTC hour, only once 3 sign-ins are recorded", async () => {
    const a = await analyzer.analyze(input({ at: THREE_UTC }));
    expect(a.score).toBe(0.15);
    expect(a.signals).toEqual([{ name: "unusual-hour", weight: 0.15, detail: "3:00 UTC" }]);
    expect((await analyzer.analyze(input({ at: THREE_UTC }, { signInCount: 3 }))).score).toBe(0.15);
    expect((await analyzer.analyze(input({ at: THREE_UTC }, { signInCount: 2 }))).score).toBe(0);
  });

  it("sums signals exactly and clamps to 1", async () => {
    const two = await analyzer.analyze(input({ deviceId: "phone", remoteAddress: "198.51.100.7" }));
    expect(two.score).toBe(0.6);
    expect(names(two.signals)).toEqual(["new-device", "new-network"]);
    const three = await analyzer.analyze(
      input({ deviceId: "phone", remoteAddress: "198.51.100.7", at: THREE_UTC }),
    );
    expect(three.score).toBe(0.75);
    const all = await analyzer.analyze(
      input({ deviceId: "phone", remoteAddress: "198.51.100.7", at: THREE_UTC }, { recentFailures: 5 }),
    );
    expect(all.score).toBe(1);
    expect(names(all.signals)).toEqual(["new-device", "new-network", "unusual-hour", "failed-attempts"]);
    expect(all.signals.reduce((t, s) => t + s.weight, 0)).toBeCloseTo(1.15);
  });

  it("scores a user without history 0.5 (no-history), plus failures", async () => {
    const empty = { knownDevices: [], knownNetworks: [], usualHours: [], signInCount: 0 };
    const a = await analyzer.analyze(input({ at: THREE_UTC, deviceId: undefined }, empty));
    expect(a).toEqual({
      score: 0.5,
      signals: [{ name: "no-history", weight: 0.5, detail: "first recorded sign-in" }],
      analyzer: "heuristic",
    });
    const after = await analyzer.analyze(input({}, { ...empty, recentFailures: 2 }));
    expect(after.score).toBe(0.66);
    expect(names(after.signals)).toEqual(["no-history", "failed-attempts"]);
  });

  it("is deterministic", async () => {
    const i = input({ deviceId: "phone", at: THREE_UTC }, { recentFailures: 3 });
    expect(await analyzer.analyze(i)).toEqual(await analyzer.analyze(i));
  });
});
