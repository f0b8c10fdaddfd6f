import { describe, expect, it } from "vitest";
import {
  cleanResourceName,
  MAX_FRIENDLY_NAME_LENGTH,
  MAX_RESOURCE_DESCRIPTION_LENGTH,
} from "./clean-resource-name.js";

describe("cleanResourceName", () => {
  it.each([
    ["HTML tags", "<a href='javascript:alert(1)'>View</a> an order", "View an order"],
    ["a tag cut in half", "View an order<script", "View an orderscript"],
    ["control characters", "View\u0000 an\u0007 order\u001b[31m", "View an order [31m"],
    ["bidi overrides and zero-width characters", "View\u202e an\u200b order\u2066", "View an order"],
    ["line breaks and tabs", "View\r\nan\t order\u2028", "View an order"],
  ])("removes %s", (_label, friendlyName, expected) => {
    expect(cleanResourceName({ friendlyName, description: "d" })?.friendlyName).toBe(expected);
  });

  it("cuts long text on a word boundary, or hard when it has none", () => {
    const words = cleanResourceName({ friendlyName: "List ".repeat(40), description: "word ".repeat(200) })!;
    expect(words.friendlyName.length).toBeLessThanOrEqual(MAX_FRIENDLY_NAME_LENGTH);
    expect(words.friendlyName.endsWith("List")).toBe(true);
    expect(words.description.length).toBeLessThanOrEqual(MAX_RESOURCE_DESCRIPTION_LENGTH);
    const solid = cleanResourceName({ friendlyName: "x".repeat(10_000), description: "" })!;
    expect(solid.friendlyName).toBe("x".repeat(MAX_FRIENDLY_NAME_LENGTH));
    // An empty description takes the name.
    expect(solid.description).toBe(solid.friendlyName);
  });

  it("refuses what is no name: empty after cleaning, not text, not an object", () => {
    for (const proposed of [
      { friendlyName: "<b></b>\u0000 ", description: "d" },
      { friendlyName: 7, description: "d" },
      { description: "d" },
      null,
      "View an order",
      ["View an order"],
    ]) {
      expect(cleanResourceName(proposed)).toBeUndefined();
    }
  });
});
