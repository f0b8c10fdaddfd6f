import { describe, expect, it } from "vitest";
import { V19_BUNDLE } from "../../prompts/bundles/v19-bundle.js";
import { V20_BUNDLE } from "../../prompts/bundles/v20-bundle.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { golden } from "../decisions.fixture.js";
import { applyFloors, minimumActionRulesOf } from "./minimum-action-rules.js";

const adminDelete = golden("external-admin-delete");

describe("the minimum action rules (v20's B5)", () => {
  it("raise an action to the highest floor that holds and record it (MAR-1 and MAR-2 hold: ESCALATE)", () => {
    expect(applyFloors("ALLOW", V20_BUNDLE, adminDelete)).toEqual({
      action: "ESCALATE",
      floor: { rule: "MAR-2", atLeast: "ESCALATE", raisedFrom: "ALLOW" },
    });
  });

  it("never lower an action, and record no floor when none raised it", () => {
    expect(applyFloors("BLOCK", V20_BUNDLE, adminDelete)).toEqual({ action: "BLOCK" });
    expect(applyFloors("ESCALATE", V20_BUNDLE, adminDelete)).toEqual({ action: "ESCALATE" });
  });

  it("hold MAR-1 alone on a restricted target from outside with a trusted device", () => {
    const input = parsePromptInput({
      ...adminDelete,
      request: { ...adminDelete.request, method: "GET", target: "/admin/reports" },
      device: { trusted: true },
    });
    // /admin/ is RESTRICTED and its action ADMIN, but the device is trusted: MAR-2 does not hold.
    expect(applyFloors("ALLOW", V20_BUNDLE, input)).toEqual({
      action: "CHALLENGE",
      floor: { rule: "MAR-1", atLeast: "CHALLENGE", raisedFrom: "ALLOW" },
    });
  });

  it("never let an unknown fact satisfy an equality; MAR-3 holds when subject or target is unknown", () => {
    const noDevice = parsePromptInput({ ...adminDelete, device: {} });
    expect(applyFloors("ALLOW", V20_BUNDLE, noDevice).floor?.rule).toBe("MAR-1");
    expect(applyFloors("ALLOW", V20_BUNDLE, golden("every-fact-missing"))).toEqual({
      action: "CHALLENGE",
      floor: { rule: "MAR-3", atLeast: "CHALLENGE", raisedFrom: "ALLOW" },
    });
    expect(applyFloors("ALLOW", V20_BUNDLE, golden("internal-read"))).toEqual({ action: "ALLOW" });
  });

  it("are not applied by v19, whose B5 is ABSENT", () => {
    expect(minimumActionRulesOf(V19_BUNDLE)).toBeNull();
    expect(applyFloors("ALLOW", V19_BUNDLE, adminDelete)).toEqual({ action: "ALLOW" });
  });

  it("are off when the bundle's defaults disable them", () => {
    const rules = minimumActionRulesOf(V20_BUNDLE)!;
    const off = {
      ...V20_BUNDLE,
      minimumActionRules: { ...rules, defaults: { ...rules.defaults, enabled: false } },
    };
    expect(applyFloors("ALLOW", off, adminDelete)).toEqual({ action: "ALLOW" });
  });

  it("refuse a bundle whose rules are of another version or read a key the dictionary lacks", () => {
    const rules = minimumActionRulesOf(V20_BUNDLE)!;
    for (const bad of [
      { ...rules, version: "minimum-action-rules/2" },
      { ...rules, rules: [{ id: "MAR-9", when: { "request.colour": "RED" }, atLeast: "BLOCK" }] },
    ]) {
      expect(() => minimumActionRulesOf({ ...V20_BUNDLE, minimumActionRules: bad })).toThrow(
        expect.objectContaining({ code: "DECISION_BUNDLE_UNSUPPORTED" }),
      );
    }
  });
});
