import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { PLATFORM_COMMANDS, runCli } from "@keyward/cli";
import { memoryCliIo } from "../../packages/cli/src/command-line/memory-cli-io.js";
import { AuditLog, UserRepository, ZeroTrustActionStore } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// Issue #25: when no administrator is available (all blocked, locked or disabled by any route), a
// local `platform break-glass` against the store, holding the key-encryption key, restores one.

const KEK = "break-glass-test-key-encryption-key-0123456789";
let double: WireDouble;
let demo: RunningDemo;
let uri = "";

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  uri = `${double.uri.replace(/\/\?/, "/break_glass?")}`;
  demo = await startDemo(
    {},
    { ...NO_MFA_FOR_ADMINS, "platform.keys.encryption-key": KEK },
    { plugins: [mongoPlugin({ uri: double.uri, dbName: "break_glass" })] },
  );
});
afterAll(async () => {
  await demo?.close();
  await double?.close();
});

async function breakGlass(env: Record<string, string>, ...argv: string[]) {
  const io = memoryCliIo([], env);
  const code = await runCli(["break-glass", ...argv], PLATFORM_COMMANDS, io);
  return { code, out: io.stdout.join(""), err: io.stderr.join("") };
}

const signIn = (username: string, password: string) =>
  fetch(`${demo.base}/api/login`, json("POST", { username, password }));

describe("platform break-glass", () => {
  it("restores an administrator when none is available, and is audited", async () => {
    const users = demo.platform.resolve(UserRepository);
    const admin = (await users.findByUsername("admin"))!;
    const admin2 = (await users.findByUsername("admin2"))!;
    // Nobody can administer: admin disabled and locked, admin2 under a BLOCK (written past every guard).
    await users.update({ ...admin, enabled: false, locked: true });
    await demo.platform
      .resolve(ZeroTrustActionStore)
      .put({ subject: `user:${admin2.id}`, action: "BLOCK", source: "test" }, 3_600_000);
    expect((await signIn("admin", "admin")).status).toBe(423);
    expect((await signIn("admin2", "admin2")).status).toBe(403);

    const wrong = await breakGlass(
      { PLATFORM_KEYS_ENCRYPTION_KEY: "not-the-key-of-this-deployment-0123456789" },
      "--mongo-uri",
      uri,
      "--username",
      "admin",
    );
    expect(wrong.code).not.toBe(0);
    expect((await users.findByUsername("admin"))?.enabled).toBe(false);

    const done = await breakGlass(
      { PLATFORM_KEYS_ENCRYPTION_KEY: KEK },
      "--mongo-uri",
      uri,
      "--username",
      "admin",
      "--json",
    );
    expect(done.code, done.err).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({ ok: true, username: "admin" });
    const res = await signIn("admin", "admin");
    expect(res.status).toBe(200);
    const { accessToken } = (await res.json()) as { accessToken: string };
    expect(
      (await fetch(`${demo.base}/admin/api/users`, { headers: { authorization: `Bearer ${accessToken}` } }))
        .status,
    ).toBe(200);
    const audit = await demo.platform.resolve(AuditLog).query({ type: "user.break-glass" });
    expect(audit.length).toBeGreaterThanOrEqual(1);
  });

  it("refuses without a store or a user, and for an unknown user", async () => {
    expect((await breakGlass({ PLATFORM_KEYS_ENCRYPTION_KEY: KEK }, "--username", "admin")).code).not.toBe(0);
    expect((await breakGlass({ PLATFORM_KEYS_ENCRYPTION_KEY: KEK }, "--mongo-uri", uri)).code).not.toBe(0);
    const unknown = await breakGlass(
      { PLATFORM_KEYS_ENCRYPTION_KEY: KEK },
      "--mongo-uri",
      uri,
      "--username",
      "nobody",
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toMatch(/NOT_FOUND|No such user/);
  });
});
