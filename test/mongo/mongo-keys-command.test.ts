import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { PLATFORM_COMMANDS, runCli } from "@keyward/cli";
import { createPlatform, identityPlugin, mfaPlugin, type Platform } from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryCliIo } from "../../packages/cli/src/command-line/memory-cli-io.js";

// Issue 27: `platform keys list | rotate` work locally against the store, with the key-encryption
// key; a wrong key stops them before any change, and no key material is ever printed.

const KEK = "keys-command-test-key-encryption-key-0123456789";
let double: WireDouble;
let platform: Platform;
let uri = "";

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  uri = double.uri.replace(/\/\?/, "/keys_command?");
  platform = createPlatform({
    env: {},
    properties: { "platform.keys.encryption-key": KEK },
    plugins: [identityPlugin, mfaPlugin, mongoPlugin({ uri })],
  });
  await platform.start(); // makes the JWT signing key (and the MFA keys) in the store
});
afterAll(async () => {
  await platform?.stop();
  await double?.close();
});

async function keys(kek: string, ...argv: string[]) {
  const io = memoryCliIo([], { PLATFORM_KEYS_ENCRYPTION_KEY: kek });
  const code = await runCli(["keys", ...argv, "--mongo-uri", uri], PLATFORM_COMMANDS, io);
  return { code, out: io.stdout.join(""), err: io.stderr.join("") };
}

type Row = { purpose: string; kid: string; algorithm: string; state: string; ageMs: number };
const rowsOf = (out: string) => (JSON.parse(out) as { keys: Row[] }).keys;

describe("platform keys on MongoDB", () => {
  it("lists the ring per purpose with age and state, never the material", async () => {
    const listed = await keys(KEK, "list", "--json");
    expect(listed.code, listed.err).toBe(0);
    const rows = rowsOf(listed.out);
    expect(rows.find((r) => r.purpose === "jwt.signing")).toMatchObject({
      algorithm: "ES256",
      state: "active",
    });
    expect(JSON.stringify(rows)).not.toMatch(/material|secret|"d":|v1\./);
    const text = await keys(KEK, "list");
    expect(text.out).toMatch(/jwt\.signing\s+\S+\s+ES256\s+age \d+m\s+active/);
  });

  it("a wrong key-encryption key stops list and rotate before any change", async () => {
    const before = rowsOf((await keys(KEK, "list", "--json")).out);
    const wrong = "not-the-key-encryption-key-of-this-store-42";
    const listed = await keys(wrong, "list");
    expect(listed.code).toBe(1);
    expect(listed.err).toContain("CONFIGURATION_INVALID");
    expect(listed.out).toBe("");
    expect((await keys(wrong, "rotate", "jwt")).code).toBe(1);
    expect(rowsOf((await keys(KEK, "list", "--json")).out)).toEqual(
      before.map((r) => ({ ...r, ageMs: expect.any(Number) })),
    );
  });

  it("rotate jwt: a new active key of the same algorithm, the old one retired until its last token expired", async () => {
    const old = rowsOf((await keys(KEK, "list", "--json")).out).find((r) => r.purpose === "jwt.signing")!;
    const rotated = await keys(KEK, "rotate", "jwt", "--json");
    expect(rotated.code, rotated.err).toBe(0);
    const done = JSON.parse(rotated.out) as { kid: string; retiredKid: string; algorithm: string };
    expect(done).toMatchObject({ ok: true, retiredKid: old.kid, algorithm: "ES256" });
    const jwt = rowsOf((await keys(KEK, "list", "--json")).out).filter((r) => r.purpose === "jwt.signing");
    expect(jwt.map((r) => [r.kid, r.state])).toEqual([
      [done.kid, "active"],
      [old.kid, "retired"],
    ]);
    const device = await keys(KEK, "rotate", "device-cookie");
    expect(device.code, device.err).toBe(0);
    expect(device.out).toContain("next start");
  });
});
