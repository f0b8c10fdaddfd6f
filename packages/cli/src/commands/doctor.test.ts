import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import type { DoctorFinding } from "../doctor/doctor-finding.js";
import { PLATFORM_COMMANDS } from "./index.js";

const tmp = mkdtempSync(join(tmpdir(), "cli-doctor-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SECRET = "a-device-cookie-secret-of-32-bytes-or-more!";
const HEALTHY = {
  PLATFORM_SERVER_PUBLIC_URL: "https://id.example.com",
  PLATFORM_HTTP_TRUSTED_PROXIES: "10.0.0.0/8",
  PLATFORM_AUTH_JWT_ISSUER: "https://id.example.com",
  PLATFORM_AUTH_JWT_ALGORITHM: "HS256",
  PLATFORM_AUTH_JWT_SECRET: `base64url:${Buffer.alloc(32, 7).toString("base64url")}`,
  PLATFORM_AUTH_DEVICE_COOKIE_SECRET: SECRET,
};

async function doctor(env: Record<string, string>, ...argv: string[]) {
  const io = memoryCliIo([], env);
  const code = await runCli(["doctor", ...argv, "--json"], PLATFORM_COMMANDS, io);
  const out = io.stdout.join("");
  return {
    code,
    findings: (out ? JSON.parse(out).findings : []) as DoctorFinding[],
    err: io.stderr.join(""),
  };
}
const codes = (findings: DoctorFinding[]) => findings.map((f) => `${f.severity}:${f.code}`);

describe("platform doctor", () => {
  it("exits 0 on a development default (warnings only), 1 when judged as production", async () => {
    const dev = await doctor({});
    expect(dev.code).toBe(0);
    expect(codes(dev.findings)).toContain("warning:JWT_KEY_GENERATED_AT_START");
    const prod = await doctor({ NODE_ENV: "production" });
    expect(prod.code).toBe(1);
    expect(codes(prod.findings)).toEqual(
      expect.arrayContaining([
        "error:JWT_KEY_GENERATED_AT_START",
        "error:PUBLIC_URL_MISSING",
        "error:STORE_IN_MEMORY",
      ]),
    );
  });

  it("finds nothing to fix in the keys and addresses of a complete configuration", async () => {
    const { findings } = await doctor(HEALTHY, "--production");
    expect(codes(findings)).toEqual(["error:STORE_IN_MEMORY"]);
  });

  it("flags weak secrets, a proxy without trusted proxies, plain http and a non-URL issuer, never printing a secret", async () => {
    const weak = "short-secret";
    const { code, findings } = await doctor(
      {
        ...HEALTHY,
        PLATFORM_AUTH_JWT_SECRET: weak,
        PLATFORM_AUTH_DEVICE_COOKIE_SECRET: weak,
        PLATFORM_HTTP_TRUSTED_PROXIES: "",
        PLATFORM_AUTH_JWT_ISSUER: "platform",
      },
      "--production",
    );
    expect(code).toBe(1);
    expect(codes(findings)).toEqual(
      expect.arrayContaining([
        "error:SECRET_TOO_SHORT",
        "error:TRUSTED_PROXIES_MISSING",
        "warning:JWT_ISSUER_NOT_URL",
      ]),
    );
    expect(findings.filter((f) => f.code === "SECRET_TOO_SHORT")).toHaveLength(2);
    expect(JSON.stringify(findings)).not.toContain(weak);
    const http = await doctor(
      { ...HEALTHY, PLATFORM_SERVER_PUBLIC_URL: "http://id.example.com" },
      "--production",
    );
    expect(codes(http.findings)).toContain("error:PUBLIC_URL_NOT_HTTPS");
  });

  it("flags unknown property names with a did-you-mean, and invalid values by key and rule only", async () => {
    const config = join(tmp, "typo.config.mjs");
    writeFileSync(
      config,
      `export default { properties: { "platform.auth.jwt.isuer": "https://x", "platform.auth.jwt.algorithm": "RS256-secret-value", "totally.unknown": 1 } };`,
    );
    const { code, findings } = await doctor({ PLATFORM_AUTH_JWT_AUDIANCE: "x" }, "--config", config);
    expect(code).toBe(1);
    const unknown = findings.filter((f) => f.code === "PROPERTY_UNKNOWN");
    expect(unknown.map((f) => [f.severity, f.fix])).toEqual([
      ["error", "did you mean platform.auth.jwt.issuer?"],
      ["error", expect.stringContaining("remove it")],
      ["warning", "did you mean PLATFORM_AUTH_JWT_AUDIENCE?"],
    ]);
    const invalid = findings.find((f) => f.code === "PROPERTY_INVALID");
    expect(invalid?.message).toContain("platform.auth.jwt.algorithm");
    expect(JSON.stringify(findings)).not.toContain("RS256-secret-value");
  });

  it("refuses an extra argument (2) and a missing config file (1), and has --help", async () => {
    expect((await doctor({}, "now")).code).toBe(2);
    expect((await doctor({}, "--config", join(tmp, "missing.mjs"))).code).toBe(1);
    const io = memoryCliIo();
    expect(await runCli(["doctor", "--help"], PLATFORM_COMMANDS, io)).toBe(0);
    expect(io.stdout.join("") + io.stderr.join("")).toContain("--production");
  });

  it("bounds hostile names: a huge unknown key or variable is cut, not echoed whole", async () => {
    const { findings } = await doctor({ [`PLATFORM_${"X".repeat(5000)}`]: "1" });
    const f = findings.find((x) => x.code === "PROPERTY_UNKNOWN");
    expect(f?.message.length).toBeLessThan(400);
  });
});
