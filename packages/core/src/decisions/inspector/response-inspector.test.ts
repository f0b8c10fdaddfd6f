import { describe, expect, it } from "vitest";
import { V19_BUNDLE } from "../../prompts/bundles/v19-bundle.js";
import { V20_BUNDLE } from "../../prompts/bundles/v20-bundle.js";
import { goldenRender } from "../decisions.fixture.js";
import { inspectorDefinitionOf } from "./inspector-definition.js";
import { inspectAnswer, reasonsOf } from "./response-inspector.js";
import { answerValidator } from "./response-schema.js";

const user = goldenRender(V20_BUNDLE, "external-admin-delete", "L1-standard");
const good = {
  riskScore: 0.7,
  confidence: 0.8,
  action: "ESCALATE",
  reasoning: "EXTERNAL_NETWORK[F9] and ADMIN_ACTION[F5]; the device F16 is not trusted",
  mitre: ["T1078"],
  evidenceRefs: ["F5", "F9", "F16"],
};
const inspect = (answer: unknown, bundle = V20_BUNDLE, prompt = user) =>
  inspectAnswer(typeof answer === "string" ? answer : JSON.stringify(answer), bundle, prompt);

describe("the response inspector", () => {
  it("accepts an answer in the output format and reads its coded reasons", () => {
    expect(inspect(good)).toEqual({
      accepted: true,
      answer: {
        ...good,
        reasons: [
          { code: "EXTERNAL_NETWORK", refs: ["F9"] },
          { code: "ADMIN_ACTION", refs: ["F5"] },
        ],
      },
    });
  });

  it("records one MODEL_EVIDENCE reason for an answer whose reasoning codes none", () => {
    expect(reasonsOf("external network, untrusted device (F9, F16)", ["F9", "F16"])).toEqual([
      { code: "MODEL_EVIDENCE", refs: ["F9", "F16"] },
    ]);
    expect(reasonsOf("nothing stands out", [])).toEqual([]);
  });

  it.each([
    ["ANSWER_NOT_JSON", "riskScore: 0.7"],
    ["ANSWER_NOT_JSON", "```json\n{}\n```"],
    ["ANSWER_SCHEMA_VIOLATION", "[]"],
    ["ANSWER_SCHEMA_VIOLATION", { ...good, mitre: undefined }],
    ["ANSWER_SCHEMA_VIOLATION", { ...good, verdict: "ok" }],
    ["ANSWER_SCHEMA_VIOLATION", { ...good, riskScore: "0.7" }],
    ["ANSWER_SCHEMA_VIOLATION", { ...good, reasoning: "x".repeat(401) }],
    ["ANSWER_SCHEMA_VIOLATION", { ...good, evidenceRefs: [9] }],
    ["ANSWER_ACTION_UNKNOWN", { ...good, action: "DENY" }],
    ["ANSWER_ACTION_UNKNOWN", { ...good, action: "allow" }],
    ["ANSWER_SCORE_OUT_OF_RANGE", { ...good, riskScore: 1.2 }],
    ["ANSWER_SCORE_OUT_OF_RANGE", { ...good, confidence: -0.1 }],
    ["ANSWER_CITES_UNKNOWN_FACT", { ...good, evidenceRefs: ["F5", "F99"] }],
    ["ANSWER_CITES_UNKNOWN_FACT", { ...good, reasoning: "ADMIN_ACTION[F5]; see also F77" }],
    ["ANSWER_CITES_UNKNOWN_FACT", { ...good, reasoning: "ADMIN_ACTION[F5] NEW_DEVICE[F40]" }],
    ["ANSWER_CITES_UNKNOWN_FACT", { ...good, reasoning: "ADMIN_ACTION[]" }],
    ["ANSWER_CITES_UNKNOWN_FACT", { ...good, evidenceRefs: ["LOCATION_CONTEXT"] }],
  ])("refuses with %s: %j", (refusal, answer) => {
    expect(inspect(answer)).toMatchObject({ accepted: false, refusal });
  });

  it("refuses a fact ID that is in the prompt but on no line's end (a value imitating one)", () => {
    const partly = goldenRender(V20_BUNDLE, "partly-known", "L1-standard");
    expect(partly).toContain("(F1) / pipe {F6}");
    const answer = { ...good, reasoning: "DEPARTMENT[F6]", evidenceRefs: ["F6"] };
    expect(inspect(answer, V20_BUNDLE, partly)).toMatchObject({ accepted: true });
    expect(inspect({ ...answer, evidenceRefs: ["F12"] }, V20_BUNDLE, partly)).toMatchObject({
      refusal: "ANSWER_CITES_UNKNOWN_FACT",
    });
  });

  it("holds a v19 answer's references to the sections the prompt carries", () => {
    const v19 = goldenRender(V19_BUNDLE, "every-fact-missing", "L1-standard");
    const answer = {
      ...good,
      reasoning: "MISSING[EXPLICIT_MISSING_KNOWLEDGE]",
      evidenceRefs: ["IDENTITY_AND_ROLE"],
    };
    expect(inspect(answer, V19_BUNDLE, v19)).toMatchObject({ accepted: true });
    expect(inspect({ ...answer, evidenceRefs: ["LOCATION_CONTEXT"] }, V19_BUNDLE, v19)).toMatchObject({
      refusal: "ANSWER_CITES_UNKNOWN_FACT",
    });
  });

  it("compiles each bundle's schema once", () => {
    const definition = inspectorDefinitionOf(V20_BUNDLE);
    expect(answerValidator(V20_BUNDLE, definition)).toBe(answerValidator(V20_BUNDLE, definition));
    expect(answerValidator(V19_BUNDLE, definition)).not.toBe(answerValidator(V20_BUNDLE, definition));
  });

  it("refuses to read a bundle whose inspector definition is of another version", () => {
    const bundle = { ...V20_BUNDLE, responseInspector: { version: "response-inspector/2" } };
    expect(() => inspect(good, bundle)).toThrow(
      expect.objectContaining({
        code: "DECISION_BUNDLE_UNSUPPORTED",
        details: expect.objectContaining({ element: "B6" }),
      }),
    );
  });
});
