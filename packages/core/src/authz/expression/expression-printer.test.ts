import { describe, expect, it } from "vitest";
import { parseExpression } from "./expression-parser.js";
import { printExpression, quoteString } from "./expression-printer.js";

describe("printExpression", () => {
  it.each([
    ["permitAll", "permitAll"],
    ["permitAll()", "permitAll"],
    ["denyAll ( )", "denyAll"],
    ["isAuthenticated()", "isAuthenticated()"],
    ["hasAnyAuthority('A','B' ,  'C')", "hasAnyAuthority('A', 'B', 'C')"],
    ["permitAll || denyAll && isAnonymous()", "permitAll or denyAll and isAnonymous()"],
    ["(permitAll || denyAll) && isAnonymous()", "(permitAll or denyAll) and isAnonymous()"],
    ["((permitAll) and (denyAll)) or isAnonymous()", "permitAll and denyAll or isAnonymous()"],
    ["permitAll or (denyAll or isAnonymous())", "permitAll or (denyAll or isAnonymous())"],
    ["permitAll and (denyAll and isAnonymous())", "permitAll and (denyAll and isAnonymous())"],
    ["not (permitAll)", "!permitAll"],
    ["NOT (permitAll AND denyAll)", "!(permitAll and denyAll)"],
    ["!!permitAll", "!!permitAll"],
    ["!(!permitAll or denyAll)", "!(!permitAll or denyAll)"],
    ["TRUE or False", "true or false"],
    ["hasAuthority('it''s')", "hasAuthority('it''s')"],
    ["#ai.hasActionOrDefault(TRUE, 'ALLOW')", "#ai.hasActionOrDefault(true, 'ALLOW')"],
    ["isAllowed() and #ai.isAllowed()", "isAllowed() and #ai.isAllowed()"],
    [
      "#ownership.isOwner( authentication ,returnObject )",
      "#ownership.isOwner(authentication, returnObject)",
    ],
  ])("%s → %s", (source, printed) => {
    expect(printExpression(parseExpression(source))).toBe(printed);
  });

  it.each([
    "permitAll or denyAll and !(isAnonymous() or hasRole('A'))",
    "!(permitAll and (denyAll or isAnonymous())) and hasIpAddress('::1')",
    "timeBetween('22:00', '06:00') and dayOfWeekIn('MON', 'FRIDAY') or dateBetween('2026-01-01', '2026-12-31')",
  ])("round-trips %s", (source) => {
    const once = printExpression(parseExpression(source));
    expect(printExpression(parseExpression(once))).toBe(once);
    expect(stripSpans(parseExpression(once))).toEqual(stripSpans(parseExpression(source)));
  });

  it("quotes strings with doubled quotes", () => {
    expect(quoteString("a'b''c")).toBe("'a''b''''c'");
    expect(quoteString("a\\b")).toBe("'a\\b'");
  });
});

function stripSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSpans);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "position" && key !== "end" && key !== "parenthesized")
      .map(([key, v]) => [key, stripSpans(v)]),
  );
}
