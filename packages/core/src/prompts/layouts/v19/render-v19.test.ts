import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BudgetProfile } from "../../bundles/budget-profile.js";
import { V19_BUNDLE } from "../../bundles/v19-bundle.js";
import { parsePromptInput } from "../../input/prompt-input.js";
import { DEFAULT_BUNDLE_ROOT } from "../../manifest/bundle-root.js";
import { countTokens } from "../../tokens/token-counter.js";
import { v19CutOrder } from "./render-v19.js";
import { V19_SECTIONS } from "./v19-sections.js";

const golden = (name: string) =>
  parsePromptInput(
    JSON.parse(readFileSync(join(DEFAULT_BUNDLE_ROOT, "golden", "inputs", `${name}.json`), "utf8")),
  );
const [L1, L2] = V19_BUNDLE.budgets as [BudgetProfile, BudgetProfile];
const withUserBudget = (userTokens: number): BudgetProfile => ({ ...L1, userTokens });
const headers = (text: string) =>
  [...text.matchAll(/^=== (.+) ===$/gm)].map((m) => m[1]!.replaceAll(" ", "_"));

describe("the v19 sections layout", () => {
  it("has the sixteen user sections in order, with their priority classes", () => {
    expect(V19_SECTIONS.map((s) => `${s.name}:${s.priority}`)).toEqual([
      "CURRENT_REQUEST_AND_EVENT:P0",
      "BRIDGE_AND_COVERAGE:P1",
      "IDENTITY_AND_ROLE:P0",
      "DEVICE_CONTEXT:P1",
      "LOCATION_CONTEXT:P1",
      "RESOURCE_AND_ACTION:P0",
      "SESSION_NARRATIVE:P1",
      "OBSERVED_AND_PERSONAL_WORK_PATTERN:P1",
      "RAG_EVIDENCE_CONTEXT:P2",
      "SUPPORTING_LEARNING_CONTEXT:P2",
      "ROLE_SCOPE:P1",
      "FRICTION_AND_APPROVAL:P2",
      "DELEGATED_OBJECTIVE:P2",
      "THREAT_LEARNING_AND_MEMORY:P1",
      "EXPLICIT_MISSING_KNOWLEDGE:P0",
      "INTENT_SIGNAL_CONTEXT:P2",
    ]);
  });

  it("renders the system text as SYSTEM_INSTRUCTION then DECISION with the output format", () => {
    const system = V19_BUNDLE.renderSystem(L1);
    expect(headers(system)).toEqual(["SYSTEM_INSTRUCTION", "DECISION"]);
    expect(system).toContain("<output_format>");
    for (const f of ["riskScore", "confidence", "action", "reasoning", "mitre", "evidenceRefs"])
      expect(system).toContain(`- ${f} (`);
    expect(V19_BUNDLE.renderSystem(L2)).toContain("second analysis");
  });

  it("renders every section with content, in order, under its === header", () => {
    const { user, omitted } = V19_BUNDLE.render(golden("long-history"), L2);
    expect(omitted).toEqual([]);
    expect(headers(user)).toEqual(V19_SECTIONS.map((s) => s.name));
    expect(user.endsWith("\n") && !user.endsWith("\n\n")).toBe(true);
  });

  it("cuts P2 sections last-to-first, then P1, to fit the budget, and names each cut", () => {
    const input = golden("long-history");
    const full = V19_BUNDLE.render(input, L2);
    const r = V19_BUNDLE.render(input, withUserBudget(full.userTokens - 300));
    expect(r.omitted.length).toBeGreaterThan(0);
    expect(r.omitted).toEqual(v19CutOrder().slice(0, r.omitted.length));
    expect(r.userTokens).toBeLessThanOrEqual(full.userTokens - 300);
    expect(r.userTokens).toBe(countTokens(r.user));
    for (const name of r.omitted) expect(r.user).toContain(`- section ${name}: omitted for budget`);
    expect(headers(r.user)).toEqual(V19_SECTIONS.map((s) => s.name).filter((n) => !r.omitted.includes(n)));
  });

  it("never cuts a P0 section: with no budget left it keeps them all and says over budget", () => {
    const r = V19_BUNDLE.render(golden("long-history"), withUserBudget(10));
    const p0 = V19_SECTIONS.filter((s) => s.priority === "P0").map((s) => s.name);
    expect(headers(r.user)).toEqual(p0);
    expect(r.omitted).toEqual(v19CutOrder());
    expect(r.overBudget).toBe(true);
  });

  it("cuts the golden long-history under L1 but not under L2", () => {
    const input = golden("long-history");
    expect(V19_BUNDLE.render(input, L1).omitted).toEqual(["INTENT_SIGNAL_CONTEXT", "DELEGATED_OBJECTIVE"]);
    expect(V19_BUNDLE.render(input, L2).omitted).toEqual([]);
  });

  it("an input with every fact missing renders the P0 sections, (none) where empty, and names every missing fact", () => {
    const r = V19_BUNDLE.render(parsePromptInput({ eventId: "evt-x" }), L1);
    expect(headers(r.user)).toEqual([
      "CURRENT_REQUEST_AND_EVENT",
      "IDENTITY_AND_ROLE",
      "RESOURCE_AND_ACTION",
      "EXPLICIT_MISSING_KNOWLEDGE",
    ]);
    expect(r.user).toContain("=== IDENTITY AND ROLE ===\n(none)\n");
    for (const fact of [
      "subject",
      "time",
      "roles",
      "action",
      "target",
      "resource class",
      "network",
      "device",
    ])
      expect(r.user).toContain(`- ${fact}: not known`);
  });

  it("renders the same bytes on every run", () => {
    const input = golden("external-admin-delete");
    expect(V19_BUNDLE.render(input, L1).user).toBe(V19_BUNDLE.render(structuredClone(input), L1).user);
  });

  it("refuses a malformed input with PROMPT_INPUT_INVALID naming the field", () => {
    expect(() => parsePromptInput({ eventId: "e", request: { size: -1 } })).toThrow(
      expect.objectContaining({
        code: "PROMPT_INPUT_INVALID",
        details: { issues: [expect.stringMatching(/^request\.size: /)] },
      }),
    );
  });
});
