import { describe, expect, it } from "vitest";
import { isPlatformError } from "../platform-error.js";
import { KeySealer } from "./key-sealer.js";

const KEK = new TextEncoder().encode("k".repeat(32));
const SECRET = new Uint8Array([1, 2, 3, 250, 0, 7]);

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("KeySealer", () => {
  it("opens what it sealed under the same label, and seals twice differently (random IV)", () => {
    const sealer = new KeySealer(KEK);
    const a = sealer.seal(SECRET, "jwt.signing/k1/ES256");
    const b = sealer.seal(SECRET, "jwt.signing/k1/ES256");
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(sealer.open(a, "jwt.signing/k1/ES256")).toEqual(SECRET);
    expect(new KeySealer(KEK).open(b, "jwt.signing/k1/ES256")).toEqual(SECRET);
  });

  it("never shows the material in the sealed form", () => {
    const secret = new TextEncoder().encode("a very recognisable private key material");
    const sealed = new KeySealer(KEK).seal(secret, "p/k/a");
    expect(sealed).not.toContain(Buffer.from(secret).toString("base64url").slice(0, 12));
  });

  it.each([
    ["another KEK", (s: string) => new KeySealer(new TextEncoder().encode("x".repeat(32))).open(s, "p/k/a")],
    ["another label (material moved to another record)", (s: string) => new KeySealer(KEK).open(s, "p/k2/a")],
    [
      "a flipped byte",
      (s: string) =>
        new KeySealer(KEK).open(`${s.slice(0, -2)}${s.endsWith("A") ? "B" : "A"}${s.slice(-1)}`, "p/k/a"),
    ],
    ["not sealed material", () => new KeySealer(KEK).open("plain-text-secret", "p/k/a")],
    ["a truncated body", () => new KeySealer(KEK).open("v1.AAAAAAAAAAAAAAAA.AAAA", "p/k/a")],
  ])("refuses %s with CONFIGURATION_INVALID naming the record, never the material", (_, open) => {
    const sealed = new KeySealer(KEK).seal(SECRET, "p/k/a");
    const error = errorOf(() => open(sealed));
    expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
    expect((error as Error).message).toContain("p/k");
  });

  it("refuses a key-encryption key shorter than 32 bytes", () => {
    const error = errorOf(() => new KeySealer(new Uint8Array(31)));
    expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
  });
});
