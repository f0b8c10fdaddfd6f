import { describe, expect, it } from "vitest";
import type { ReleaseRow, RollbackExecution } from "../registry/release-registry.js";
import { previewKey, renderReleasesBody } from "./releases-view.js";

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
    expect(html).toContain("10%; tenants acme");
    expect(html).toContain("&#60;img src=x onerror=alert(1)&#62;");
    expect(html).toMatch(/data-target="ACTIVE".*EMPIRICAL_EVAL_MISSING/s);
    expect(html).toContain("None open.");
  });

  it("says plainly that decisions do not follow the registry yet", () => {
    expect(view([])).toMatch(
      /class="notice releases-enforcement" role="note">Decisions do not follow this registry yet: .*platform\.security\.tiered\.prompt-bundle\.active/,
    );
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
