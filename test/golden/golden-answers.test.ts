import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWERS_DIRECTORY, readAnswers, writeAnswers } from "./answers-file.js";
import type { RecordedGroup, RecordedStep } from "./golden-types.js";
import { recordGroup } from "./record-group.js";
import { GOLDEN_GROUPS } from "./requests/index.js";

// `pnpm golden:record` sets GOLDEN_RECORD=1: the answers are written instead of compared.
const RECORDING = process.env.GOLDEN_RECORD === "1";

/** `METHOD path` of a recorded step, or what it read: the name a diff is reported under. */
function label(group: string, scenario: string, step: RecordedStep): string {
  const what = step.request
    ? `${String(step.request.method)} ${String(step.request.path)}`
    : step.outbox
      ? "outbox"
      : "clock";
  return `${group} › ${scenario} › ${step.step} (${what})`;
}

describe("golden request lists", () => {
  it("name each group, scenario and step once, so a diff names one request", () => {
    const groups = GOLDEN_GROUPS.map((g) => g.name);
    expect(new Set(groups).size).toBe(groups.length);
    for (const g of GOLDEN_GROUPS) {
      expect(g.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const scenarios = g.scenarios.map((s) => s.name);
      expect(new Set(scenarios).size, g.name).toBe(scenarios.length);
      for (const s of g.scenarios) {
        const steps = s.steps.map((st) => st.name);
        expect(new Set(steps).size, `${g.name} › ${s.name}`).toBe(steps.length);
      }
    }
  });

  it("keep one answers file per group and none for a group that is gone", () => {
    const files = readdirSync(ANSWERS_DIRECTORY).filter((f) => f.endsWith(".json"));
    expect(files.sort()).toEqual(GOLDEN_GROUPS.map((g) => `${g.name}.json`).sort());
  });
});

for (const group of GOLDEN_GROUPS) {
  describe(`golden answers: ${group.name}`, () => {
    let recorded: RecordedGroup;
    const expected = RECORDING ? undefined : readAnswers(group.name);

    beforeAll(async () => {
      recorded = await recordGroup(group);
    }, 60_000);

    if (RECORDING) {
      afterAll(() => writeAnswers(recorded));
      it("records the answers", () => {
        expect(recorded.scenarios).toHaveLength(group.scenarios.length);
      });
      return;
    }

    it("has recorded answers (pnpm golden:record)", () => {
      expect(expected, `test/golden/answers/${group.name}.json is missing`).toBeDefined();
      expect(expected?.description).toBe(group.description);
    });

    for (const [i, scenario] of group.scenarios.entries()) {
      it(scenario.name, () => {
        const want = expected?.scenarios[i];
        const got = recorded.scenarios[i]!;
        expect(want?.scenario, "scenario order in the answers file").toBe(scenario.name);
        expect(
          got.steps.map((s) => s.step),
          `${group.name} › ${scenario.name}: steps`,
        ).toEqual(want?.steps.map((s) => s.step));
        for (const [j, step] of got.steps.entries()) {
          expect.soft(step, label(group.name, scenario.name, step)).toEqual(want?.steps[j]);
        }
      });
    }
  });
}
