import { describe, expect, it } from "vitest";
import type { ZeroTrustAction } from "../zerotrust/zero-trust-action.js";
import { compileExpression } from "./expression-compiler.js";
import { testContext } from "./test-context.js";

const ACTIONS: readonly (ZeroTrustAction | undefined)[] = [
  "ALLOW",
  "BLOCK",
  "CHALLENGE",
  "ESCALATE",
  "PENDING_ANALYSIS",
  undefined,
];

/** For each expression, the actions (undefined = no analysis) under which it is true. */
const TRUE_FOR: readonly [string, readonly (ZeroTrustAction | undefined)[]][] = [
  ["#ai.isAllowed()", ["ALLOW"]],
  ["isAllowed()", ["ALLOW"]],
  ["#ai.isBlocked()", ["BLOCK"]],
  ["isBlocked()", ["BLOCK"]],
  ["#ai.needsChallenge()", ["CHALLENGE"]],
  ["needsChallenge()", ["CHALLENGE"]],
  ["#ai.needsEscalation()", ["ESCALATE"]],
  ["#ai.isPendingAnalysis()", ["PENDING_ANALYSIS", undefined]],
  ["#ai.hasAction('ALLOW')", ["ALLOW"]],
  ["#ai.hasAction('BLOCK')", ["BLOCK"]],
  ["#ai.hasAction('PENDING_ANALYSIS')", ["PENDING_ANALYSIS", undefined]],
  ["hasAction('ESCALATE')", ["ESCALATE"]],
  ["#ai.hasActionIn('ALLOW', 'CHALLENGE')", ["ALLOW", "CHALLENGE"]],
  ["#ai.hasActionIn('PENDING_ANALYSIS')", ["PENDING_ANALYSIS", undefined]],
  ["#ai.hasActionIn('ALLOW', 'BLOCK', 'CHALLENGE', 'ESCALATE')", ["ALLOW", "BLOCK", "CHALLENGE", "ESCALATE"]],
  ["#ai.hasActionOrDefault(true, 'ALLOW')", ["ALLOW", undefined]],
  ["#ai.hasActionOrDefault(false, 'ALLOW')", ["ALLOW"]],
  ["#ai.hasActionOrDefault(false, 'ALLOW', 'PENDING_ANALYSIS')", ["ALLOW", "PENDING_ANALYSIS"]],
  ["#ai.hasActionOrDefault(true, 'BLOCK', 'ESCALATE')", ["BLOCK", "ESCALATE", undefined]],
  ["!#ai.isBlocked()", ["ALLOW", "CHALLENGE", "ESCALATE", "PENDING_ANALYSIS", undefined]],
];

describe("zero-trust functions", () => {
  for (const [source, expected] of TRUE_FOR) {
    it.each(ACTIONS.map((action) => [action, expected.includes(action)] as const))(
      `${source} with %s → %s`,
      (action, result) => {
        expect(compileExpression(source).evaluate(testContext({ zeroTrustAction: action }))).toBe(result);
      },
    );
  }

  it("validates action names against ZERO_TRUST_ACTIONS when compiling", () => {
    expect(() => compileExpression("#ai.hasAction('DENY')")).toThrow(/unknown zero-trust action "DENY"/);
    expect(() => compileExpression("#ai.hasActionIn('ALLOW', 'Allow')")).toThrow(/at 25:/);
    expect(() => compileExpression("#ai.hasActionOrDefault(true, 'OK')")).toThrow(
      /unknown zero-trust action/,
    );
    expect(() => compileExpression("#ai.hasAction('ALLOW', 'BLOCK')")).toThrow(/expects 1 argument, got 2/);
  });
});
