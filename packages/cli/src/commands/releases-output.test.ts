import { describe, expect, it } from "vitest";
import { executionOf, headLines, headsOf, historyOf, receiptLines, receiptOf } from "./releases-output.js";

const execution = {
  executionKey: "RBX-1",
  registryScope: "PLATFORM_GLOBAL",
  promptKey: "cortex.security-decision",
  fromVersion: "v20",
  toVersion: "v19",
  status: "UNRATIFIED",
  operator: "admin",
  emergency: true,
  conditions: [{ code: "TARGET_NOT_IN_BUILD", outcome: "PASSED" }],
};
const head = {
  registryScope: "PLATFORM_GLOBAL",
  revision: 4,
  releases: [
    {
      promptKey: "cortex.security-decision",
      promptVersion: "v20",
      templateKey: "t",
      status: "CANARY",
      artifactHash: "ab".repeat(32),
      canaryPercent: 5,
    },
  ],
  openExecutions: [execution],
};

describe("the releases commands read the server's answers by shape", () => {
  it("print each release and flag an UNRATIFIED stop", () => {
    const lines = headLines(headsOf({ scopes: [head] })[0]!);
    expect(lines[1]).toMatch(/^ {2}CANARY\s+cortex\.security-decision v20 {2}abababababab {2}canary 5%$/);
    expect(lines[2]).toContain("!! UNRATIFIED (past its deadline, still in force) RBX-1");
  });

  it.each([
    ["no scopes", {}],
    ["a release without a status", { scopes: [{ ...head, releases: [{ promptVersion: "v20" }] }] }],
    [
      "a stop without conditions",
      { scopes: [{ ...head, openExecutions: [{ ...execution, conditions: "x" }] }] },
    ],
    ["null", null],
  ])("refuse a release list with %s", (_what, body) => {
    expect(() => headsOf(body)).toThrow(expect.objectContaining({ code: "SERVER_ANSWER_INVALID" }));
  });

  it("refuse a receipt, an execution or a history of the wrong shape", () => {
    expect(() => receiptOf({ outcome: "MAYBE", blockers: [] })).toThrow(/not a transition receipt/);
    expect(() => executionOf({ executionKey: 1 })).toThrow(/not a rollback execution/);
    expect(() => historyOf({ entries: [{ kind: "X" }] })).toThrow(/not a release history/);
  });

  it("print a dry run's blockers", () => {
    const receipt = receiptOf({
      outcome: "BLOCKED",
      dryRun: true,
      promptVersion: "v20",
      fromStatus: "AVAILABLE",
      targetStatus: "SHADOW",
      blockers: [{ code: "CHANGE_LEDGER_MISSING", detail: "no change record for this hash" }],
      deprecated: [],
    });
    expect(receiptLines(receipt)).toEqual([
      "Dry run: would be BLOCKED v20: AVAILABLE -> SHADOW",
      "  blocked by CHANGE_LEDGER_MISSING: no change record for this hash",
    ]);
  });
});
