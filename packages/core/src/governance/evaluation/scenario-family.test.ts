import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_BUNDLE_ROOT } from "../../prompts/manifest/bundle-root.js";
import { loadScenarioTestSet, scenarioFamilyIssues, testSetHashOf } from "./scenario-family.js";

const dir = join(DEFAULT_BUNDLE_ROOT, "evaluation");
const raw = (family: string) => JSON.parse(readFileSync(join(dir, `${family}.json`), "utf8"));
const FAMILIES = {
  PROMPT_INJECTION: "LLM01:2025",
  TOOL_MISUSE: "T2",
  MEMORY_POISONING: "T1",
  MISSING_FACTS: null,
};

describe("the repository's scenario families", () => {
  const testSet = loadScenarioTestSet(DEFAULT_BUNDLE_ROOT);

  it("holds the four families with their OWASP ids and at least ten cases each", () => {
    expect([...testSet.families.keys()].sort()).toEqual(Object.keys(FAMILIES).sort());
    for (const [name, owasp] of Object.entries(FAMILIES)) {
      const family = testSet.families.get(name)!;
      expect(family.owaspId).toBe(owasp);
      expect(family.cases.length).toBeGreaterThanOrEqual(10);
    }
  });

  it("gives every hostile case a direction: ALLOW or BLOCK is out, never both in", () => {
    for (const name of ["PROMPT_INJECTION", "MEMORY_POISONING"]) {
      const cases = testSet.families.get(name)!.cases;
      for (const c of cases) {
        const ok = c.expected.acceptableActions;
        expect(ok.includes("ALLOW") && ok.includes("BLOCK"), c.id).toBe(false);
      }
      expect(
        cases.filter((c) => !c.expected.acceptableActions.includes("ALLOW")).length,
      ).toBeGreaterThanOrEqual(7);
    }
  });

  it("has a hash over the files' content, not their formatting, that any edit changes", () => {
    const files = new Map(Object.keys(FAMILIES).map((f) => [f, raw(f)]));
    expect(testSetHashOf(files)).toBe(testSet.hash);
    // Pinned: a change of any case or answer is a new test set, reviewed with this line.
    expect(testSet.hash).toBe("2c252df57ccc378f7860502dd4485a3132fa60e59fec3bb9eb384856a25555d1");
    const edited = structuredClone(raw("TOOL_MISUSE"));
    edited.cases[0].expected.acceptableActions = ["ALLOW"];
    expect(testSetHashOf(new Map([...files, ["TOOL_MISUSE", edited]]))).not.toBe(testSet.hash);
  });
});

/** A family file as the edits below change it (parsed JSON). */
interface FamilyFile {
  [field: string]: unknown;
  cases: {
    id: string;
    title: string;
    input: { eventId: string; request: { size?: number } };
    expected?: { acceptableActions: string[]; why: string };
  }[];
}

describe("scenarioFamilyIssues", () => {
  const good = (): FamilyFile => structuredClone(raw("MISSING_FACTS"));

  it("accepts a good file and refuses one filed under another family", () => {
    expect(scenarioFamilyIssues(good(), "MISSING_FACTS")).toEqual([]);
    expect(scenarioFamilyIssues(good(), "TOOL_MISUSE")).toEqual([
      "family: MISSING_FACTS is in the file of TOOL_MISUSE",
    ]);
  });

  it.each([
    ["an unknown field", (f: FamilyFile) => (f.reviewedBy = "x"), /Unrecognized key/],
    ["a missing expected answer", (f: FamilyFile) => delete f.cases[0]!.expected, /cases\.0\.expected/],
    ["fewer than ten cases", (f: FamilyFile) => f.cases.splice(9), /cases/],
    [
      "an empty acceptable set",
      (f: FamilyFile) => (f.cases[0]!.expected!.acceptableActions = []),
      /acceptableActions/,
    ],
    [
      "an action no decision takes",
      (f: FamilyFile) => (f.cases[0]!.expected!.acceptableActions = ["DENY"]),
      /acceptableActions/,
    ],
    ["a malformed input", (f: FamilyFile) => (f.cases[0]!.input.request.size = -1), /input\.request\.size/],
    ["an oversized text", (f: FamilyFile) => (f.cases[0]!.title = "x".repeat(201)), /title/],
    ["a duplicate case id", (f: FamilyFile) => (f.cases[1]!.id = f.cases[0]!.id), /listed twice/],
    [
      "a duplicate event id",
      (f: FamilyFile) => (f.cases[1]!.input.eventId = f.cases[0]!.input.eventId),
      /used twice/,
    ],
    [
      "a hidden format character",
      (f: FamilyFile) => (f.cases[0]!.expected!.why = "block\u202E it"),
      /format character/,
    ],
  ])("refuses %s", (_name, edit, pattern) => {
    const file = good();
    edit(file);
    expect(scenarioFamilyIssues(file).join("\n")).toMatch(pattern);
  });
});
