import { describe, expect, it } from "vitest";
import { EVIDENCE_CONTENT_SCHEMAS } from "./evidence-kind-schemas.js";

const VALID = {
  CHANGE_RECORD: { summary: "Dictionary blocks.\nReviewed by two.", reference: "SEC-1", risk: "LOW" },
  MODEL_COMPATIBILITY: { profiles: [{ profile: "openai:gpt-4o-mini@L1-standard", verdict: "COMPATIBLE" }] },
  BUDGET_PROFILE: {
    profiles: [
      {
        family: "L1",
        name: "L1-standard",
        maxTokens: 2000,
        systemTokens: 450,
        userTokens: 1150,
        outputTokens: 400,
      },
    ],
  },
  TOKEN_COUNTING_POLICY: { encoding: "o200k_base", headroomPercent: 10, rationale: "As OpenAI counts." },
  CACHE_POLICY: {
    mode: "PROVIDER_PREFIX_CACHE",
    maxAgeSeconds: 300,
    rationale: "The system text is a stable prefix.",
  },
  COMPACTION_POLICY: { strategy: "DROP_PAST_RECORDS", rationale: "v20 drops past records." },
} as const;
type Kind = keyof typeof VALID;
const kinds = Object.keys(VALID) as Kind[];
const parse = (kind: Kind, value: unknown) => EVIDENCE_CONTENT_SCHEMAS[kind].safeParse(value);
/** The first string field of a kind's valid content, and a setter for it. */
const firstText: Record<Kind, (c: any, v: string) => void> = {
  CHANGE_RECORD: (c, v) => (c.reference = v),
  MODEL_COMPATIBILITY: (c, v) => (c.profiles[0].note = v),
  BUDGET_PROFILE: (c, v) => (c.profiles[0].name = v),
  TOKEN_COUNTING_POLICY: (c, v) => (c.rationale = v),
  CACHE_POLICY: (c, v) => (c.rationale = v),
  COMPACTION_POLICY: (c, v) => (c.rationale = v),
};

describe("evidence kind schemas", () => {
  it.each(kinds)("%s: accepts its minimal content", (kind) => {
    expect(parse(kind, VALID[kind]).success).toBe(true);
  });

  it.each(kinds)("%s: refuses a missing field, an unknown field, a wrong type and a non-object", (kind) => {
    const [first] = Object.keys(VALID[kind]);
    const { [first!]: _dropped, ...missing } = VALID[kind] as Record<string, unknown>;
    expect(parse(kind, missing).success).toBe(false);
    expect(parse(kind, { ...VALID[kind], passed: true }).success).toBe(false);
    expect(parse(kind, { ...VALID[kind], [first!]: 42 }).success).toBe(false);
    for (const bad of [null, [], "passed", 1]) expect(parse(kind, bad).success).toBe(false);
  });

  it.each(kinds)("%s: refuses oversized and hostile text", (kind) => {
    for (const bad of ["x".repeat(5_000), "ok\u202Eevil", "zero\u200Bwidth", "nul\u0000"]) {
      const content = structuredClone(VALID[kind]) as any;
      firstText[kind](content, bad);
      expect(parse(kind, content).success, JSON.stringify(bad.slice(0, 12))).toBe(false);
    }
  });

  it("holds the kinds' own rules", () => {
    expect(parse("CACHE_POLICY", { mode: "NONE", maxAgeSeconds: 60, rationale: "x" }).success).toBe(false);
    expect(parse("CACHE_POLICY", { mode: "RESPONSE_CACHE", rationale: "x" }).success).toBe(false);
    expect(parse("CACHE_POLICY", { mode: "NONE", rationale: "x" }).success).toBe(true);
    expect(
      parse("MODEL_COMPATIBILITY", { profiles: [{ profile: "gpt-4o", verdict: "COMPATIBLE" }] }).success,
    ).toBe(false);
    expect(parse("MODEL_COMPATIBILITY", { profiles: [] }).success).toBe(false);
    expect(parse("CHANGE_RECORD", { summary: "x", risk: "NONE" }).success).toBe(false);
    expect(
      parse("BUDGET_PROFILE", { profiles: [{ ...VALID.BUDGET_PROFILE.profiles[0], maxTokens: 0 }] }).success,
    ).toBe(false);
  });
});
