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
/** Where each kind's content has a text field the hostile values go into. */
const TEXT_FIELD: Record<Kind, readonly string[]> = {
  CHANGE_RECORD: ["reference"],
  MODEL_COMPATIBILITY: ["profiles", "0", "note"],
  BUDGET_PROFILE: ["profiles", "0", "name"],
  TOKEN_COUNTING_POLICY: ["rationale"],
  CACHE_POLICY: ["rationale"],
  COMPACTION_POLICY: ["rationale"],
};
/** A copy of `value` with the field at `path` set to `text`. */
function withText(value: unknown, path: readonly string[], text: string): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path.at(-1)!] = text;
  return copy;
}

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
      const content = withText(VALID[kind], TEXT_FIELD[kind], bad);
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

describe("a change record's reference", () => {
  const withReference = (reference: string) =>
    parse("CHANGE_RECORD", { ...VALID.CHANGE_RECORD, reference }).success;

  it("is a ticket id or an http(s) review URL", () => {
    for (const good of [
      "SEC-1234",
      "platform/api#42",
      "JIRA_7.1",
      "https://review.example.com/c/42?tab=files#diff",
      "http://tickets.internal/SEC-1",
    ])
      expect(withReference(good), good).toBe(true);
  });

  it("refuses script and other schemes, credentials, white space and what a ticket id is not", () => {
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript://%0Aalert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox",
      "file:///etc/passwd",
      "https://user:secret@review.example.com/",
      "https://review.example.com/a b",
      "https://",
      "//evil.example.com",
      "../etc/passwd",
      "-SEC-1",
      "SEC 1",
      "<img src=x>",
    ])
      expect(withReference(bad), bad).toBe(false);
  });
});
