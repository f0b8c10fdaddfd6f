import { describe, expect, it } from "vitest";
import { decisionIdOf, reasonNamingDecision } from "./zero-trust-decision-reference.js";

describe("a record's reason names the decision that wrote it", () => {
  it("leads the reason with the id and reads it back", () => {
    const id = "0b7c1e52-4a8f-4f0e-9d43-1f2a3b4c5d6e";
    const reason = reasonNamingDecision(id, "AI ESCALATE (risk 0.55, L1, bundle v20)", 500);
    expect(reason).toBe(`decision ${id}: AI ESCALATE (risk 0.55, L1, bundle v20)`);
    expect(decisionIdOf({ reason })).toBe(id);
  });

  it("keeps the id when the text is cut to the length a record allows", () => {
    const reason = reasonNamingDecision("d-1", `AI BLOCK (${"X,".repeat(400)})`, 500);
    expect(reason).toHaveLength(500);
    expect(decisionIdOf({ reason })).toBe("d-1");
  });

  it("names no decision for a reason without the lead, or an id that is not a plain id", () => {
    expect(decisionIdOf({ reason: "stolen laptop" })).toBeUndefined();
    expect(decisionIdOf({})).toBeUndefined();
    expect(decisionIdOf(undefined)).toBeUndefined();
    expect(decisionIdOf({ reason: "decision <script>: x" })).toBeUndefined();
    const odd = reasonNamingDecision("a b", "AI ALLOW", 500);
    expect(odd).toBe("AI ALLOW");
    expect(decisionIdOf({ reason: odd })).toBeUndefined();
  });
});
