import { describe, expect, it } from "vitest";
import { emailAddressProblem } from "./email-address.js";

describe("emailAddressProblem on hostile input", () => {
  it.each([
    ["a CR/LF header injection", "alice@example.com\r\nBcc: all@example.com"],
    ["a bare LF", "alice@example.com\nX: y"],
    ["a second recipient", "alice@example.com,eve@example.com"],
    ["a display name", "Eve <eve@example.com>"],
    ["an SMTP command", "alice@example.com>\r\nRCPT TO:<eve@example.com"],
    ["a NUL", "alice\u0000@example.com"],
    ["a right-to-left override", "alice\u202e@example.com"],
    ["a zero-width space", "ali\u200bce@example.com"],
    ["a full-width @", "alice＠example.com"],
  ])("refuses %s", (_what, address) => {
    expect(emailAddressProblem(address)).toBeDefined();
  });

  it("answers a long pathological input in linear time", () => {
    const inputs = [
      `${"a.".repeat(120)}@example.com`,
      `a@${"a-".repeat(120)}.example`,
      `${"!".repeat(64)}@${"a.".repeat(94)}com`,
      "@".repeat(500),
    ];
    const started = performance.now();
    for (let i = 0; i < 2_000; i++) for (const input of inputs) emailAddressProblem(input);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
