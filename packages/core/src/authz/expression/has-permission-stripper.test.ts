import { describe, expect, it } from "vitest";
import { parseExpression } from "./expression-parser.js";
import { printExpression } from "./expression-printer.js";
import { stripHasPermission } from "./has-permission-stripper.js";

const strip = (source: string) => {
  const node = stripHasPermission(parseExpression(source));
  return node === undefined ? undefined : printExpression(node);
};

describe("stripHasPermission", () => {
  it.each([
    ["hasPermission('a', 'b')", undefined],
    ["!hasPermission('a', 'b')", undefined],
    ["!!hasPermission('a', 'b')", undefined],
    ["hasPermission('a', 'b') and hasPermission('c', 'd')", undefined],
    ["hasRole('A') and hasPermission('a', 'b')", "hasRole('A')"],
    ["hasPermission('a', 'b') or hasRole('A') or isAnonymous()", "hasRole('A') or isAnonymous()"],
    ["!hasPermission('a', 'b') and hasRole('A')", "hasRole('A')"],
    ["!(hasPermission('a', 'b') and hasRole('A'))", "!hasRole('A')"],
    ["(hasPermission('a', 'b') or hasRole('A')) and isAnonymous()", "hasRole('A') and isAnonymous()"],
    ["isAnonymous() or (hasPermission('a', 'b') and hasRole('A'))", "isAnonymous() or hasRole('A')"],
    ["true and hasPermission('a', 'b')", "true"],
    ["#ai.isAllowed() and hasPermission('a', 'b')", "#ai.isAllowed()"],
  ])("%s → %s", (source, expected) => {
    expect(strip(source)).toBe(expected);
  });

  it("returns the same node when nothing is removed", () => {
    for (const source of ["hasRole('A')", "!isAnonymous()", "hasRole('A') or !(isAnonymous() and true)"]) {
      const node = parseExpression(source);
      expect(stripHasPermission(node)).toBe(node);
    }
  });
});
