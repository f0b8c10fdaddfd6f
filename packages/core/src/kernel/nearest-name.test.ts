import { describe, expect, it } from "vitest";
import { nearestName } from "./nearest-name.js";

describe("nearestName", () => {
  const names = ["properties", "plugins", "overrides", "register", "routes"];

  it("answers the closest name within a few edits, ignoring case", () => {
    expect(nearestName("propertes", names)).toBe("properties");
    expect(nearestName("PLUGINS", names)).toBe("plugins");
    expect(nearestName("route", names)).toBe("routes");
  });

  it("answers nothing when no name is close enough, or for a very long name", () => {
    expect(nearestName("database", names)).toBeUndefined();
    expect(nearestName("x".repeat(10_000), names)).toBeUndefined();
    expect(nearestName("anything", [])).toBeUndefined();
  });
});
