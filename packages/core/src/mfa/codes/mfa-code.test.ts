import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { generateMfaCode, hashMfaCode, verifyMfaCode } from "./mfa-code.js";

function errorCode(run: () => unknown): string {
  try {
    run();
    return "accepted";
  } catch (error) {
    return isPlatformError(error) ? error.code : String(error);
  }
}

describe("generateMfaCode", () => {
  it("makes 10k codes of only digits, of the asked length, with every digit at every position", () => {
    const length = 6;
    const counts = Array.from({ length }, () => new Array<number>(10).fill(0));
    const total = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const code = generateMfaCode(length);
      expect(code).toMatch(/^[0-9]{6}$/);
      for (let p = 0; p < length; p++) {
        const digit = Number(code[p]);
        counts[p]![digit]!++;
        total[digit]!++;
      }
    }
    for (const position of counts) for (const n of position) expect(n).toBeGreaterThan(0);
    // 60k digits, 6k expected per digit, sd ~73: a 20% band is a sanity check, not a statistics test.
    for (const n of total) {
      expect(n).toBeGreaterThan(4_800);
      expect(n).toBeLessThan(7_200);
    }
  });

  it("draws one random(0, 10) per digit and keeps leading zeros", () => {
    const draws: [number, number][] = [];
    const digits = [0, 0, 7, 9];
    const code = generateMfaCode(4, (min, max) => {
      draws.push([min, max]);
      return digits[draws.length - 1]!;
    });
    expect(code).toBe("0079");
    expect(draws).toEqual([
      [0, 10],
      [0, 10],
      [0, 10],
      [0, 10],
    ]);
  });

  it("supports lengths 4 to 12 only", () => {
    expect(generateMfaCode(4)).toHaveLength(4);
    expect(generateMfaCode(12)).toHaveLength(12);
    for (const length of [3, 13, 0, -1, 6.5, Number.NaN]) {
      expect(
        errorCode(() => generateMfaCode(length)),
        String(length),
      ).toBe("CONFIGURATION_INVALID");
    }
  });

  it("refuses a random source that leaves 0..9", () => {
    expect(errorCode(() => generateMfaCode(6, () => 10))).toBe("INTERNAL_ERROR");
    expect(errorCode(() => generateMfaCode(6, () => 0.5))).toBe("INTERNAL_ERROR");
  });
});

describe("hashMfaCode and verifyMfaCode", () => {
  const session = "mfa-session-1";
  const K = { secret: "test-key" };

  it("verifies the right code in its own session", () => {
    const hash = hashMfaCode("012345", session, K);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain("012345");
    expect(verifyMfaCode("012345", hash, session, K)).toBe(true);
    expect(verifyMfaCode("012345", hash, session, { ...K, length: 6 })).toBe(true);
  });

  it("refuses a wrong code and the right code in another session", () => {
    const hash = hashMfaCode("012345", session, K);
    expect(verifyMfaCode("012346", hash, session, K)).toBe(false);
    expect(verifyMfaCode("012345", hash, "mfa-session-2", K)).toBe(false);
    expect(verifyMfaCode("012345", hash, "", K)).toBe(false);
  });

  it("binds the hash to the secret: another key gives another hash", () => {
    const a = hashMfaCode("123456", session, { secret: "key-a" });
    expect(a).toBe(hashMfaCode("123456", session, { secret: "key-a" }));
    expect(a).not.toBe(hashMfaCode("123456", session, { secret: "key-b" }));
    expect(verifyMfaCode("123456", a, session, { secret: "key-a" })).toBe(true);
    expect(verifyMfaCode("123456", a, session, K)).toBe(false);
  });

  it("answers false, without throwing, for a non-string, a wrong length or a non-digit", () => {
    const hash = hashMfaCode("123456", session, K);
    const presented: unknown[] = [
      123456,
      undefined,
      null,
      ["123456"],
      { toString: () => "123456" },
      "",
      "123",
      "12345",
      "1234567",
      "1".repeat(13),
      "9".repeat(100_000),
      " 123456",
      "123456 ",
      "12345a",
      "１２３４５６",
      "١٢٣٤٥٦",
      "12345\u0000",
    ];
    for (const value of presented) {
      expect(
        verifyMfaCode(value, hash, session, { ...K, length: 6 }),
        JSON.stringify(value)?.slice(0, 20),
      ).toBe(false);
    }
    expect(verifyMfaCode("1234567", hashMfaCode("1234567", session, K), session, { ...K, length: 6 })).toBe(
      false,
    );
    expect(verifyMfaCode("123456", "not-a-hash", session, K)).toBe(false);
  });

  it("refuses to hash a malformed code or an empty session id", () => {
    expect(errorCode(() => hashMfaCode("12ab56", session, K))).toBe("INTERNAL_ERROR");
    expect(errorCode(() => hashMfaCode("123", session, K))).toBe("INTERNAL_ERROR");
    expect(errorCode(() => hashMfaCode("123456", "", K))).toBe("INTERNAL_ERROR");
  });
});
