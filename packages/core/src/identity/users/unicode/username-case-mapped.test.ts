import { describe, expect, it } from "vitest";
import { usernameCaseMapped } from "./username-case-mapped.js";

describe("usernameCaseMapped (RFC 8265 UsernameCaseMapped enforcement)", () => {
  it("maps width, lower-cases without a locale and composes (NFC)", () => {
    expect(usernameCaseMapped("ＡＬＩＣＥ")).toEqual({ form: "alice", settled: true });
    expect(usernameCaseMapped("İ").form).toBe("i\u0307");
    expect(usernameCaseMapped("E\u0301").form).toBe("é");
    expect(usernameCaseMapped("Straße").form).toBe("straße");
  });
});
