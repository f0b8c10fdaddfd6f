import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { V20_BUNDLE } from "../../prompts/bundles/v20-bundle.js";
import { minimumActionRulesOf } from "../floors/minimum-action-rules.js";
import { ANSWER_REFUSALS } from "../inspector/refusal-codes.js";
import {
  AMBIGUITY_PENALTY,
  BAND_EDGE,
  FULL_CONFIDENCE,
  GROUNDING_FACTS,
  MIN_CONFIDENCE,
  REQUEST_FACTS,
  UNKNOWN_DETAIL_PENALTY,
  UNKNOWN_GROUNDING_PENALTY,
} from "./analyst-confidence.js";
import { ANALYST_RULES, BASE_RISK, RISK_BANDS } from "./analyst-rules.js";
import { SHEET_FACTS } from "./fact-sheet.js";

const page = readFileSync(
  fileURLToPath(new URL("../../../../../docs/security-decisions.md", import.meta.url)),
  "utf8",
);

describe("docs/security-decisions.md", () => {
  it("prints the analyst's rule table as the code has it, in order", () => {
    const rows = [...page.matchAll(/^\| `([A-Z_]+)` \| ([\d.]+) \| (.+) \|$/gm)].map(
      ([, code, weight, when]) => ({
        code,
        weight: Number(weight),
        holdsWhen: when,
      }),
    );
    expect(rows).toEqual(ANALYST_RULES.map(({ code, weight, holdsWhen }) => ({ code, weight, holdsWhen })));
  });

  it("states the base risk, the bands and the confidence rule the analyst applies", () => {
    expect(page).toContain(`The score starts at ${BASE_RISK}`);
    const [allow, challenge, escalate] = RISK_BANDS;
    expect(page).toContain(
      `Below ${allow.below} ALLOW; below ${challenge.below} CHALLENGE; below ${escalate.below} ESCALATE; from ${escalate.below} BLOCK.`,
    );
    const text = page.replace(/\s+/g, " ");
    expect(text).toContain(
      `${FULL_CONFIDENCE}, less ${UNKNOWN_GROUNDING_PENALTY} for each grounding fact the prompt does not state (subject, time, network; and, when the prompt names the request's action or target, action, target and class), less ${UNKNOWN_DETAIL_PENALTY} for each other fact the rules read that it does not state (device trusted, device first seen, account age, MFA enrolled, usual networks), less ${AMBIGUITY_PENALTY} for each ambiguity: a score within ${BAND_EDGE} of a band's bound`,
    );
    expect(text).toContain(`Half of every penalty in the second analysis; never below ${MIN_CONFIDENCE}.`);
    expect([...GROUNDING_FACTS, ...REQUEST_FACTS]).toEqual([
      "subject",
      "time",
      "network",
      "action",
      "target",
      "class",
    ]);
    expect(SHEET_FACTS).toHaveLength(11);
  });

  it("lists every refusal code of the response inspector", () => {
    const documented = [...page.matchAll(/^\| `(ANSWER_[A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(Object.keys(ANSWER_REFUSALS));
  });

  it("lists v20's minimum action rules with their floors", () => {
    const rows = [...page.matchAll(/^\| (MAR-\d+) \| .+ \| ([A-Z]+) \|$/gm)].map(([, id, atLeast]) => ({
      id,
      atLeast,
    }));
    expect(rows).toEqual(minimumActionRulesOf(V20_BUNDLE)!.rules.map(({ id, atLeast }) => ({ id, atLeast })));
  });
});
