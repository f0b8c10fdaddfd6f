import { createPrivateKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import { PLATFORM_COMMANDS } from "./index.js";

async function run(argv: string[], env: Record<string, string> = {}) {
  const io = memoryCliIo([], env);
  const code = await runCli(argv, PLATFORM_COMMANDS, io);
  return { code, out: io.stdout.join(""), err: io.stderr.join("") };
}

describe("platform keys generate", () => {
  it("prints a key-encryption key once, in the property's form (32 random bytes), the property on stderr", async () => {
    const a = await run(["keys", "generate", "key-encryption-key"]);
    const b = await run(["keys", "generate", "kek"]);
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/^base64url:[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.out.slice("base64url:".length), "base64url")).toHaveLength(32);
    expect(b.out).not.toBe(a.out);
    expect(a.err).toContain("PLATFORM_KEYS_ENCRYPTION_KEY");
    expect(a.err).not.toContain(a.out);
  });

  it("makes a JWT signing key", async () => {
    for (const algorithm of ["ES256", "EdDSA"] as const) {
      const { code, out } = await run(["keys", "generate", "jwt", "--algorithm", algorithm, "--json"]);
      expect(code).toBe(0);
      const key = JSON.parse(out) as { property: string; env: string; value: string };
      expect(key.property).toBe("platform.auth.jwt.private-key");
      expect(createPrivateKey(key.value).asymmetricKeyType).toBe(algorithm === "ES256" ? "ec" : "ed25519");
      expect(key.value).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/);
    }
    const hs = JSON.parse((await run(["keys", "generate", "jwt", "--algorithm", "HS256", "--json"])).out);
    expect(hs.property).toBe("platform.auth.jwt.secret");
    expect(Buffer.from(hs.value.slice("base64url:".length), "base64url")).toHaveLength(32);
    const cookie = JSON.parse((await run(["keys", "generate", "device-cookie", "--json"])).out);
    expect(cookie).toMatchObject({
      property: "platform.auth.device-cookie.secret",
      env: "PLATFORM_AUTH_DEVICE_COOKIE_SECRET",
    });
  });

  it("refuses a missing, unknown or hostile kind and a wrong algorithm with exit 2, printing no key", async () => {
    for (const argv of [
      ["keys", "generate"],
      ["keys", "generate", "password"],
      ["keys", "generate", "jwt", "--algorithm", "none"],
      ["keys", "generate", "jwt", "--algorithm", "RS256"],
      ["keys", "generate", "jwt", "--algorithm"],
      ["keys", "generate", "kek", "--algorithm", "ES256"],
      ["keys", "generate", "../../etc/passwd"],
      ["keys", "generate", "x".repeat(100_000)],
      ["keys", "generate", "kek", "extra"],
    ]) {
      const { code, out } = await run(argv);
      expect(code, argv.join(" ").slice(0, 60)).toBe(2);
      expect(out).toBe("");
    }
  });
});

describe("platform keys list | rotate without a store", () => {
  it("needs a durable store and the key-encryption key", async () => {
    const noStore = await run(["keys", "list"], { PLATFORM_KEYS_ENCRYPTION_KEY: "k".repeat(32) });
    expect(noStore.code).toBe(2);
    expect(noStore.err).toContain("--mongo-uri");
    const noKey = await run([
      "keys",
      "list",
      "--mongo-uri",
      "mongodb://127.0.0.1:1/x",
      "--key-file",
      "/nonexistent/kek",
    ]);
    expect(noKey.code).toBe(1);
    expect(noKey.err).toContain("KEY_ENCRYPTION_KEY_MISSING");
    const badPurpose = await run(["keys", "rotate", "passwords", "--mongo-uri", "mongodb://127.0.0.1:1/x"]);
    expect(badPurpose.code).toBe(2);
    expect((await run(["keys", "rotate"])).code).toBe(2);
  });

  it("has --help", async () => {
    const { code, out, err } = await run(["keys", "rotate", "--help"]);
    expect(code).toBe(0);
    expect(out + err).toContain("--mongo-uri");
  });
});
