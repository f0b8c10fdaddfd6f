import { describe, expect, it } from "vitest";
import { matchedTotpStep, otpauthUri, totpCodeAt } from "./totp-codes.js";

// RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890", 8 digits, 30-second steps.
const SEED = new TextEncoder().encode("12345678901234567890");
const RFC = { digits: 8, periodSeconds: 30 };
const VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP codes (RFC 6238 on otpauth)", () => {
  it.each(VECTORS)("the RFC's SHA-1 vector at T=%i is %s", (seconds, code) => {
    expect(totpCodeAt(SEED, seconds * 1000, RFC)).toBe(code);
    expect(matchedTotpStep(SEED, code, seconds * 1000, RFC)).toBe(Math.floor(seconds / 30));
  });

  it("accepts one step of drift each way and no more", () => {
    const now = 1_111_111_111_000;
    const step = Math.floor(now / 30_000);
    for (const drift of [-1, 0, 1]) {
      const code = totpCodeAt(SEED, now + drift * 30_000, RFC);
      expect(matchedTotpStep(SEED, code, now, RFC)).toBe(step + drift);
    }
    for (const drift of [-2, 2]) {
      expect(matchedTotpStep(SEED, totpCodeAt(SEED, now + drift * 30_000, RFC), now, RFC)).toBeUndefined();
    }
  });

  it("refuses anything but exactly the configured number of digits", () => {
    const now = 59_000;
    for (const bad of [undefined, 94287082, "9428708", "942870820", "9428708a", "", "９４２８７０８２"]) {
      expect(matchedTotpStep(SEED, bad, now, RFC)).toBeUndefined();
    }
    expect(matchedTotpStep(SEED, "9428 7082", now, RFC)).toBe(1);
  });

  it("writes the otpauth URI apps scan (SHA1, digits, period, issuer)", () => {
    const uri = otpauthUri(SEED, "Keyward", "alice", { digits: 6, periodSeconds: 30 });
    expect(uri).toMatch(/^otpauth:\/\/totp\/Keyward:alice\?/);
    expect(uri).toContain("algorithm=SHA1");
    expect(uri).toContain("digits=6");
    expect(uri).toContain("period=30");
    expect(uri).toContain("secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });
});
