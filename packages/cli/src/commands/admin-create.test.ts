import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOW_COST_SCRYPT } from "../../../../test/support/low-cost-scrypt.js";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import { PLATFORM_COMMANDS } from "./index.js";

// On MongoDB (the wire double): `platform admin create` writes an administrator into the store
// locally. (The race of instances starting together is decided by the store: setup-tokens.test.ts
// runs it on the in-memory store and on MongoDB.)
let double: WireDouble;
const dir = mkdtempSync(join(tmpdir(), "platform-admin-create-"));

/** A configuration module naming a database of the double and a key-encryption key. */
function configFor(database: string): string {
  const file = join(dir, `${database}.mjs`);
  const properties = {
    ...LOW_COST_SCRYPT,
    "platform.mongo.uri": double.uri.replace("/?", `/${database}?`),
    "platform.keys.encryption-key": "k".repeat(32),
  };
  writeFileSync(file, `export default { properties: ${JSON.stringify(properties)} };\n`);
  return file;
}

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
});
afterAll(async () => {
  await double?.close();
});

describe("the first administrator on MongoDB", { timeout: 60_000 }, () => {
  it("platform admin create writes an administrator to the configuration's store, never its password", async () => {
    const config = configFor("local");
    const io = memoryCliIo(["correct horse"], {});
    const code = await runCli(
      ["admin", "create", "root", "--config", config, "--password-stdin", "--email", "root@example.com"],
      PLATFORM_COMMANDS,
      io,
    );
    expect([code, io.stderr.join("\n")]).toEqual([0, ""]);
    expect(io.stdout.join("\n")).toMatch(
      /^Created administrator root \(.+\); audited as user.created by system:admin-create/,
    );
    const client = await MongoClient.connect(double.uri);
    try {
      const users = await client.db("local").collection("users").find({}).toArray();
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({
        username: "root",
        authorities: ["ROLE_USER", "ROLE_ADMIN"],
        enabled: true,
        email: "root@example.com",
      });
      expect(JSON.stringify(users)).not.toContain("correct horse");
    } finally {
      await client.close();
    }
  });

  it("refuses an in-memory configuration, a bad password and a missing --config, changing nothing", async () => {
    const memory = join(dir, "memory.mjs");
    writeFileSync(memory, "export default { properties: {} };\n");
    const cases: [string[], string[], number, RegExp][] = [
      [
        ["admin", "create", "root", "--config", memory, "--password-stdin"],
        ["correct horse"],
        1,
        /STORE_IN_MEMORY/,
      ],
      [
        ["admin", "create", "root", "--config", configFor("bad"), "--password-stdin"],
        ["short"],
        1,
        /VALIDATION_FAILED/,
      ],
      [["admin", "create", "root", "--password-stdin"], ["correct horse"], 2, /needs --config/],
      [["admin", "create", "--config", memory], [], 2, /exactly one <username>/],
    ];
    for (const [argv, input, exit, message] of cases) {
      const io = memoryCliIo(input, {});
      expect(await runCli(argv, PLATFORM_COMMANDS, io)).toBe(exit);
      expect(io.stderr.join("\n")).toMatch(message);
      expect(io.stderr.join("\n")).not.toMatch(/correct horse|short/);
    }
  });
});
