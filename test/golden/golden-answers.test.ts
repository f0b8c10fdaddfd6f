import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAnswers, writeAnswers } from "./answers-file.js";
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
