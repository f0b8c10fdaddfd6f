import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { parseScryptHash } from "./scrypt-encoded-hash.js";
import { MAX_PASSWORD_LENGTH, ScryptPasswordHasher } from "./scrypt-password-hasher.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

// ln=10 keeps these tests fast; one test runs the defaults.
const fast = () => new ScryptPasswordHasher({ costLog2: 10 });
const FORMAT = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

describe("ScryptPasswordHasher", () => {
  it("round-trips with the default parameters (N=2^15, r=8, p=1, 32-byte key, 16-byte salt)", async () => {
    const hasher = new ScryptPasswordHasher();
    const encoded = await hasher.hash("correct horse battery staple");
    expect(encoded).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/);
    const parsed = parseScryptHash(encoded);
    expect(parsed?.salt.length).toBe(16);
    expect(parsed?.hash.length).toBe(32);
    expect(await hasher.verify("correct horse battery staple", encoded)).toBe(true);
    expect(hasher.needsRehash(encoded)).toBe(false);
  });

  it("verifies the right password and refuses wrong ones", async () => {
    const hasher = fast();
    const encoded = await hasher.hash("s3cret!");
    expect(encoded).toMatch(FORMAT);
    expect(await hasher.verify("s3cret!", encoded)).toBe(true);
    for (const wrong of ["s3cret", "s3cret!!", "S3cret!", "", " s3cret!"]) {
      expect(await hasher.verify(wrong, encoded), wrong).toBe(false);
    }
  });

  it("matches the RFC 7914 test vector (password/NaCl, N=1024, r=8, p=16, 64 bytes)", async () => {
    const hash = Buffer.from(
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
      "hex",
    );
    const encoded = `$scrypt$ln=10,r=8,p=16$${Buffer.from("NaCl").toString("base64url")}$${hash.toString("base64url")}`;
    expect(await fast().verify("password", encoded)).toBe(true);
    expect(await fast().verify("Password", encoded)).toBe(false);
  });

  it("NFKC-normalises passwords, so composed, decomposed and full-width forms match", async () => {
    const hasher = fast();
    const composed = await hasher.hash("caf\u00e9");
    expect(await hasher.verify("cafe\u0301", composed)).toBe(true);
    const fullWidth = await hasher.hash("ｐａｓｓｗｏｒｄ");
    expect(await hasher.verify("password", fullWidth)).toBe(true);
    expect(await hasher.verify("\u2168", await hasher.hash("IX"))).toBe(true);
    expect(await hasher.verify("cafe", composed)).toBe(false);
  });

  it("hashes non-Latin passwords by their UTF-8 bytes", async () => {
    const hasher = fast();
    const encoded = await hasher.hash("пароль密码🔑");
    expect(await hasher.verify("пароль密码🔑", encoded)).toBe(true);
    expect(await hasher.verify("пароль密码", encoded)).toBe(false);
  });

  it("uses a fresh salt for every hash", async () => {
    const hasher = fast();
    const [a, b] = await Promise.all([hasher.hash("same"), hasher.hash("same")]);
    expect(a).not.toBe(b);
    expect(parseScryptHash(a)?.salt.equals(parseScryptHash(b)!.salt)).toBe(false);
    expect(await hasher.verify("same", a)).toBe(true);
    expect(await hasher.verify("same", b)).toBe(true);
  });

  it("stores its parameters in the hash and verifies old hashes after the defaults change", async () => {
    const old = new ScryptPasswordHasher({ costLog2: 14 });
    const encoded = await old.hash("pw");
    expect(encoded).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$/);
    const current = new ScryptPasswordHasher({ costLog2: 15 });
    expect(await current.verify("pw", encoded)).toBe(true);
    expect(current.needsRehash(encoded)).toBe(true);
    expect(old.needsRehash(encoded)).toBe(false);
  });

  it("reads r, p and the key length back from the hash", async () => {
    const other = new ScryptPasswordHasher({ costLog2: 10, blockSize: 4, parallelization: 2, keyLength: 64 });
    const encoded = await other.hash("pw");
    expect(encoded).toMatch(/^\$scrypt\$ln=10,r=4,p=2\$/);
    expect(parseScryptHash(encoded)?.hash.length).toBe(64);
    const current = fast();
    expect(await current.verify("pw", encoded)).toBe(true);
    expect(current.needsRehash(encoded)).toBe(true);
    expect(other.needsRehash(encoded)).toBe(false);
  });

  it("asks for a rehash when only the salt length differs, and for unreadable hashes", async () => {
    const encoded = await new ScryptPasswordHasher({ costLog2: 10, saltLength: 32 }).hash("pw");
    expect(fast().needsRehash(encoded)).toBe(true);
    expect(fast().needsRehash("not a hash")).toBe(true);
  });

  it("refuses passwords longer than 1024 characters in hash and answers false in verify", async () => {
    const hasher = fast();
    const longest = "a".repeat(MAX_PASSWORD_LENGTH);
    const encoded = await hasher.hash(longest);
    expect(await hasher.verify(longest, encoded)).toBe(true);
    expect(await codeOf(hasher.hash(`${longest}a`))).toBe("VALIDATION_FAILED");
    expect(await hasher.verify(`${longest}a`, encoded)).toBe(false);
  });

  it("accepts the empty password (length rules belong to the password policy, not the hasher)", async () => {
    const hasher = fast();
    const encoded = await hasher.hash("");
    expect(await hasher.verify("", encoded)).toBe(true);
    expect(await hasher.verify(" ", encoded)).toBe(false);
  });

  it("dummyVerify resolves to nothing, whatever the password", async () => {
    const hasher = fast();
    await expect(hasher.dummyVerify("anything")).resolves.toBeUndefined();
    await expect(hasher.dummyVerify("")).resolves.toBeUndefined();
  });

  it("takes its salts from the injected source", async () => {
    const hasher = new ScryptPasswordHasher({ costLog2: 10, randomBytes: (n) => Buffer.alloc(n, 7) });
    const [a, b] = [await hasher.hash("pw"), await hasher.hash("pw")];
    expect(a).toBe(b);
    expect(parseScryptHash(a)?.salt.equals(Buffer.alloc(16, 7))).toBe(true);
  });

  it("refuses configurations outside the limits with CONFIGURATION_INVALID", () => {
    const bad = [
      { costLog2: 0 },
      { costLog2: 21 },
      { costLog2: 15.5 },
      { blockSize: 0 },
      { blockSize: 33 },
      { parallelization: 17 },
      { costLog2: 20, blockSize: 16 },
      { costLog2: 18, blockSize: 8, parallelization: 16 },
      { keyLength: 8 },
      { saltLength: 8 },
      { saltLength: 65 },
    ];
    for (const options of bad) {
      let code = "constructed";
      try {
        new ScryptPasswordHasher(options);
      } catch (error) {
        code = isPlatformError(error) ? error.code : String(error);
      }
      expect(code, JSON.stringify(options)).toBe("CONFIGURATION_INVALID");
    }
    expect(new ScryptPasswordHasher({ costLog2: 20, blockSize: 8 }).parameters).toEqual({
      costLog2: 20,
      blockSize: 8,
      parallelization: 1,
    });
  });
});
