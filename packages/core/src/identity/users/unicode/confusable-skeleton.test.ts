import { describe, expect, it } from "vitest";
import { confusableSkeleton } from "./confusable-skeleton.js";

describe("confusableSkeleton (UTS #39 section 4, confusables.txt 13.0.0)", () => {
  it("maps lookalikes to one prototype", () => {
    expect(confusableSkeleton("admin")).toBe(confusableSkeleton("\u0430dmin"));
    expect(confusableSkeleton("admin")).toBe(confusableSkeleton("adm\u0131n"));
    expect(confusableSkeleton("admin")).toBe(confusableSkeleton("adrnin"));
    expect(confusableSkeleton("paypal")).toBe(confusableSkeleton("pаypаl"));
    expect(confusableSkeleton("user1")).toBe(confusableSkeleton("userl"));
  });

  it("drops default-ignorable code points and decomposes (NFD) before and after mapping", () => {
    expect(confusableSkeleton("user\u034f\u200b")).toBe(confusableSkeleton("user"));
    expect(confusableSkeleton("é")).toBe("e\u0301");
  });

  it("keeps names that do not look alike apart", () => {
    expect(confusableSkeleton("alice")).not.toBe(confusableSkeleton("alicia"));
    expect(confusableSkeleton("josé")).not.toBe(confusableSkeleton("jose"));
  });
});
