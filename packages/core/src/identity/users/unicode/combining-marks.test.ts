import { describe, expect, it } from "vitest";
import { combiningMarkProblem } from "./combining-marks.js";

describe("combiningMarkProblem (UTS #39 section 5.4 on the NFC form)", () => {
  it("accepts composed accents and the marks of scripts that write with them", () => {
    for (const name of ["josé", "nguyễn", "कार्य", "ข้าว", "\u05d1\u05bc"]) {
      expect(combiningMarkProblem(name.normalize("NFC")), name).toBeUndefined();
    }
  });

  it("refuses a mark left separate on a Latin, Greek, Cyrillic or common character", () => {
    for (const name of ["ad\u0301min", "adm\u0069\u0307n", "a\u0308\u0308", "1\u0301", "\u03b1\u0331"]) {
      expect(combiningMarkProblem(name.normalize("NFC"))?.rule, JSON.stringify(name)).toBe("combining-mark");
    }
  });

  it("refuses a leading mark, a repeated mark and more than four in a row elsewhere", () => {
    expect(combiningMarkProblem("\u0301a")?.message).toContain("start");
    expect(combiningMarkProblem("क\u093c\u093c")?.message).toContain("repeat");
    expect(combiningMarkProblem("क\u0901\u0902\u093c\u0941\u0942")?.message).toContain("more than 4");
  });
});
