import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { CountingPasswordHasher } from "./counting-password-hasher.js";
import { parseScryptHash } from "./scrypt-encoded-hash.js";
import { ScryptPasswordHasher } from "./scrypt-password-hasher.js";

// Spy on scrypt to prove how much work each call does, without measuring time.
vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:crypto")>();
  return { ...original, scrypt: vi.fn(original.scrypt) };
});
const scryptSpy = vi.mocked(crypto.scrypt);

const fast = () => new ScryptPasswordHasher({ costLog2: 10 });
const SALT = Buffer.alloc(16, 1).toString("base64url");
const HASH = Buffer.alloc(32, 2).toString("base64url");
const wellFormed = (params: string) => `$scrypt$${params}$${SALT}$${HASH}`;

/** The options (N, r, p, maxmem) and key length of every scrypt call `run` makes. */
async function scryptCalls(run: () => Promise<unknown>): Promise<unknown[][]> {
  scryptSpy.mockClear();
  await run();
  return scryptSpy.mock.calls.map((call) => [call[2], call[3]]);
}

describe("ScryptPasswordHasher security", () => {
  it("answers false, never throws, for malformed encodings", async () => {
    const hasher = fast();
    const good = await hasher.hash("pw");
    const [, , params, salt, hash = ""] = good.split("$");
    const malformed: unknown[] = [
      "",
      "pw",
      "$scrypt$",
      `$scrypt$${params}$${salt}`,
      `$scrypt$${params}$${salt}$${hash}$extra`,
      `$scrypt$${params}$$${hash}`,
      `$2b$10$${salt}${hash}`,
      `$SCRYPT$${params}$${salt}$${hash}`,
      ` ${good}`,
      `${good}\n`,
      `${good}=`,
      `$scrypt$${params}$${salt}==$${hash}`,
      `$scrypt$${params}$${salt}$${hash.slice(0, 20)}`,
      `$scrypt$${params}$${salt}$${hash}${"A".repeat(300)}`,
      `$scrypt$${params}$${salt}$${hash.replace(/.$/, "!")}`,
      `$scrypt$${params}$${salt}$${hash.slice(0, -1)}B`,
      good.replace("ln=10", "ln=010"),
      good.replace("ln=10", "ln=+10"),
      good.replace("ln=10", "ln=1e1"),
      good.replace("ln=10", "ln=ten"),
      good.replace("ln=10,r=8,p=1", "r=8,ln=10,p=1"),
      good.replace("ln=10,r=8,p=1", "ln=10,r=8"),
      "x".repeat(1_000_000),
      null,
      undefined,
      42,
      { toString: () => good },
      [good],
    ];
    for (const encoded of malformed) {
      await expect(hasher.verify("pw", encoded as string), String(encoded).slice(0, 80)).resolves.toBe(false);
      expect(hasher.needsRehash(encoded as string)).toBe(true);
    }
    expect(await hasher.verify("pw", good)).toBe(true);
  });

  it("answers false without running scrypt for hostile parameters in a stored hash", async () => {
    const hasher = fast();
    const hostile = [
      "ln=0,r=8,p=1",
      "ln=21,r=8,p=1",
      "ln=31,r=8,p=1",
      "ln=64,r=8,p=1",
      "ln=999,r=8,p=1",
      "ln=10,r=0,p=1",
      "ln=10,r=8,p=0",
      "ln=10,r=33,p=1",
      "ln=10,r=8,p=17",
      "ln=10,r=999,p=999",
      "ln=20,r=16,p=1", // 2 GiB of memory
      "ln=18,r=32,p=16", // N·r·p = 2^27
    ];
    for (const params of hostile) {
      expect(parseScryptHash(wellFormed(params)), params).toBeUndefined();
      const calls = await scryptCalls(() => hasher.verify("pw", wellFormed(params)));
      expect(calls, params).toEqual([]);
    }
  });

  it("refuses a tampered hash, salt or parameter", async () => {
    const hasher = fast();
    const good = await hasher.hash("pw");
    const parsed = parseScryptHash(good)!;
    const flip = (b: Buffer) => {
      const copy = Buffer.from(b);
      copy[0] = copy[0]! ^ 1;
      return copy.toString("base64url");
    };
    const [, , params, salt, hash = ""] = good.split("$");
    expect(await hasher.verify("pw", `$scrypt$${params}$${salt}$${flip(parsed.hash)}`)).toBe(false);
    expect(await hasher.verify("pw", `$scrypt$${params}$${flip(parsed.salt)}$${hash}`)).toBe(false);
    expect(await hasher.verify("pw", good.replace("ln=10", "ln=11"))).toBe(false);
    expect(await hasher.verify("pw", good.replace("r=8", "r=7"))).toBe(false);
    expect(await hasher.verify("pw", good.replace("p=1", "p=2"))).toBe(false);
  });

  it("compares with timingSafeEqual on equal-length buffers, deriving as many bytes as are stored", async () => {
    const hasher = fast();
    const encoded = await new ScryptPasswordHasher({ costLog2: 10, keyLength: 48 }).hash("pw");
    const calls = await scryptCalls(() => hasher.verify("pw", encoded));
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe(48);
    expect(await hasher.verify("pw", encoded)).toBe(true);
  });

  it("answers false, never throws, for hostile passwords", async () => {
    const hasher = fast();
    const encoded = await hasher.hash("pw");
    for (const password of [null, undefined, 42, { toString: () => "pw" }, "a".repeat(100_000), "\ud800pw"]) {
      await expect(hasher.verify(password as string, encoded)).resolves.toBe(false);
      await expect(hasher.dummyVerify(password as string)).resolves.toBeUndefined();
    }
  });

  it("refuses passwords that are not strings or not well-formed Unicode in hash", async () => {
    const hasher = fast();
    for (const password of [null, 42, "\ud800", "a\udc00b", "x".repeat(1025)]) {
      let code = "resolved";
      try {
        await hasher.hash(password as string);
      } catch (error) {
        code = isPlatformError(error) ? error.code : String(error);
      }
      expect(code, String(password).slice(0, 10)).toBe("VALIDATION_FAILED");
    }
  });

  it("dummyVerify runs exactly one scrypt with the current parameters, like a real verify", async () => {
    const hasher = new ScryptPasswordHasher({ costLog2: 11, blockSize: 4, parallelization: 2 });
    const encoded = await hasher.hash("pw");
    const real = await scryptCalls(() => hasher.verify("guess", encoded));
    const dummy = await scryptCalls(() => hasher.dummyVerify("guess"));
    expect(real).toHaveLength(1);
    expect(dummy).toEqual(real);
    expect(dummy[0]).toEqual([32, expect.objectContaining({ N: 2048, r: 4, p: 2 })]);
  });

  it("passes maxmem explicitly, large enough for the parameters", async () => {
    const calls = await scryptCalls(() => fast().hash("pw"));
    const options = calls[0]![1] as { N: number; r: number; p: number; maxmem: number };
    expect(options.maxmem).toBeGreaterThanOrEqual(128 * options.r * (options.N + options.p + 2));
  });

  it("counts dummy verifies as work through the CountingPasswordHasher", async () => {
    const counting = new CountingPasswordHasher(fast());
    for (const password of ["", "password", "dummy"]) await counting.dummyVerify(password);
    expect(counting.dummyVerifies).toBe(3);
    expect(counting.work).toBe(3);
  });
});
