import { describe, expect, it } from "vitest";
import type { ConvergenceReportJson } from "../../web/wire/convergence-messages.js";
import { renderInstancesSection, renderScopeConvergence } from "./convergence-view.js";

const HOSTILE = `<img src=x onerror=alert(1)>"'`;

const report: ConvergenceReportJson = {
  generatedAt: Date.UTC(2026, 9, 1),
  boundMs: 80_000,
  silentAfterMs: 60_000,
  scopes: [
    {
      registryScope: "PLATFORM_GLOBAL",
      releases: [
        {
          promptKey: "k",
          promptVersion: "v20",
          bundleHash: "ab".repeat(32),
          status: "CANARY",
          changedAt: 0,
          canary: { percent: 10, tenants: ["t1", HOSTILE], resourceFamilies: ["/api/orders"] },
        },
      ],
    },
  ],
  instances: [
    {
      instanceId: HOSTILE,
      startedAt: 0,
      lastBeatAt: 0,
      verdict: "SILENT",
      reason: "no heartbeat for 90000 ms",
      scopes: [
        {
          registryScope: "PLATFORM_GLOBAL",
          promptKey: "k",
          verdict: "STALE",
          reason: HOSTILE,
          serving: [{ promptVersion: "v19", bundleHash: "cd".repeat(32), source: "REGISTRY" }],
        },
      ],
    },
  ],
};

describe("the releases page's convergence parts", () => {
  it("escapes every instance-supplied string and shows the canary share with its targets", () => {
    const html = renderScopeConvergence("PLATFORM_GLOBAL", report) + renderInstancesSection(report);
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;img src=x onerror=alert(1)&#62;");
    expect(html).toContain("10%; tenants t1, &#60;img");
    expect(html).toContain("families /api/orders");
    // A silent instance's scope row carries the instance's verdict, not its last scope verdict.
    expect(html).toMatch(/data-verdict="SILENT"><td><code>&#60;img/);
    expect(html).toContain("80 s after the change");
  });

  it("says when nothing executes, no instance reports a scope, or none has beaten; nothing without a report", () => {
    const empty = { ...report, scopes: [], instances: [] };
    expect(renderScopeConvergence("tenant-a", empty)).toContain("Nothing executes here");
    expect(renderScopeConvergence("tenant-a", empty)).toContain("No instance reports this scope.");
    expect(renderInstancesSection(empty)).toContain("No instance has written a heartbeat.");
    expect(renderScopeConvergence("PLATFORM_GLOBAL", undefined) + renderInstancesSection(undefined)).toBe("");
  });
});
