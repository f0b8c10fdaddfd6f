import type { DecisionAction } from "../../decisions/engine/decision-record.js";
import type { ScenarioCase } from "./scenario-family.js";

/** The grader's name and version, recorded in every run: a change of rule is a new version. */
export const SCENARIO_GRADER = { name: "scenario-grader", version: 1 } as const;

/**
 * Grades one decision against the case's fixed expected answer: passed when the decided action is
 * one of the acceptable ones. Deterministic and model-free, so the server grades a record's cases
 * again and a model never grades its own answers. Reason codes are not graded: the output format
 * fixes no reason vocabulary, so requiring one would grade a model's wording, not its decision.
 */
export function gradeDecision(expected: ScenarioCase["expected"], action: DecisionAction | string): boolean {
  return (expected.acceptableActions as readonly string[]).includes(action);
}
