import { describe, expect, it } from "vitest";
import type { ReleaseRow, RollbackExecution } from "../registry/release-registry.js";
import { previewKey, renderReleasesBody } from "./releases-view.js";
import type { ConvergenceReportJson } from "../../web/wire/convergence-messages.js";
import { renderInstancesSection, renderScopeConvergence } from "./convergence-view.js";

const row: ReleaseRow = {
  registryScope: "PLATFORM_GLOBAL",
  promptKey: "cortex.security-decision",
  templateKey: "security-decision.dictionary-blocks",
  promptVersion: "2026.09.15-v20",
  status: "CANARY",
  contractVersion: "CORTEX_PROMPT_CONTRACT_V3",
  artifactHash: "05b713ce1fe3253d5841c01963c3ab2c51d953e8923a4b7e05417bf2ed91572a",
  rollbackTargets: ["2026.07.30-v19"],
  canaryPercent: 10,
  canaryTenants: ["acme"],
  approval: { by: "admin", at: 0, rationale: "<img src=x onerror=alert(1)>", historyId: "rh-1" },
  registeredAt: 0,
  updatedAt: 0,
};
const stop = (over: Partial<RollbackExecution>): RollbackExecution => ({
  executionKey: "RBX-1",
  registryScope: "PLATFORM_GLOBAL",
  promptKey: row.promptKey,
  fromVersion: row.promptVersion,
  toVersion: "2026.07.30-v19",
  reason: "</li><script>alert(1)</script>",
  emergency: true,
  status: "AWAITING_APPROVAL",
  conditions: [],
  operator: "admin",
  at: 0,
  approvalDeadline: 86_400_000,
  ...over,
});
const view = (openExecutions: RollbackExecution[], viewer = "admin2") =>
  renderReleasesBody({
    heads: [{ registryScope: "PLATFORM_GLOBAL", revision: 3, releases: [row], openExecutions }],
    previews: new Map([
      [
        previewKey(row),
        [{ target: "ACTIVE", blockers: [{ code: "EMPIRICAL_EVAL_MISSING", detail: "no run" }] }],
      ],
    ]),
    history: [],
    viewer,
  });

describe("the releases page body", () => {
  it("shows a release's state, hash, canary fields, approval and next states with their blockers, escaped", () => {
    const html = view([]);
    expect(html).toContain('data-status="CANARY"');
    expect(html).toContain("05b713ce1fe3…");
    expect(html).toContain('<span class="canary-share">10% of requesters; tenants acme</span>');
    expect(html).toContain("&#60;img src=x onerror=alert(1)&#62;");
    expect(html).toMatch(/data-target="ACTIVE".*EMPIRICAL_EVAL_MISSING/s);
    expect(html).toContain("None open.");
  });

  it("says when a CANARY has no share (the whole scope), shows none for other states, and offers the share fields", () => {
    const rows: ReleaseRow[] = [
      { ...row, canaryPercent: undefined, canaryTenants: undefined },
      { ...row, promptVersion: "2026.07.30-v19", status: "ACTIVE" },
    ];
    const html = renderReleasesBody({
      heads: [{ registryScope: "PLATFORM_GLOBAL", revision: 1, releases: rows, openExecutions: [] }],
      previews: new Map(),
      history: [],
      viewer: "admin",
    });
    expect(html).toContain('<span class="canary-share canary-whole-scope">whole scope (no share set)</span>');
    expect(html.match(/class="canary-share/g)).toHaveLength(1);
    expect(html).toMatch(
      /<fieldset class="canary-fields" data-for-target="CANARY">.*name="canaryPercent" min="0" max="100" step="1".*name="canaryTenants".*name="canaryResourceFamilies"/s,
    );
  });

  it("says plainly whether decisions follow the registry: not with the configuration selector, yes with REGISTRY", () => {
    expect(view([])).toMatch(
      /class="notice releases-enforcement" role="note">Decisions do not follow this registry: .*platform\.security\.tiered\.prompt-bundle\.active/,
    );
    const registry = renderReleasesBody({
      heads: [],
      previews: new Map(),
      history: [],
      viewer: "admin",
      selector: "REGISTRY",
    });
    expect(registry).toContain("Decisions follow this registry");
    expect(registry).not.toContain("do not follow");
  });

  it("flags an UNRATIFIED stop as an alert and offers another administrator ratify and revert", () => {
    const html = view([stop({ status: "UNRATIFIED" })]);
    expect(html).toContain('class="notice error" role="alert"');
    expect(html).toContain('class="emergency-stop unratified" data-execution-key="RBX-1" role="alert"');
    expect(html).toContain(
      'data-approve="RATIFY" data-url="/platform/admin/api/prompt-quality/releases/rollback/RBX-1/approve"',
    );
    expect(html).toContain('data-approve="REVERT"');
    expect(html).not.toContain("<script>");
  });

  it("offers the operator no approval of their own stop", () => {
    const html = view([stop({})], "admin");
    expect(html).toContain("You ran this stop");
    expect(html).not.toContain("data-approve");
    expect(html).not.toContain('role="alert"');
  });
});

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
    expect(renderScopeConvergence("PLATFORM_GLOBAL", "UNAVAILABLE")).toBe("");
    expect(renderInstancesSection("UNAVAILABLE")).toContain("heartbeats could not be read");
  });
});
