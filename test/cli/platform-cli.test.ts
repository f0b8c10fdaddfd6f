import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform } from "@keyward/cli";
import { type Platform, ServerAddress } from "@keyward/core";
import { ManagedResourceRepository, TotpEnrolmentStore, UserRepository } from "@keyward/core/ports";
import { mkdtempSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedLine } from "../../packages/cli/src/command-line/memory-cli-io.js";
import { type PlatformRun, platformBinary, platformInProcess } from "./platform-command-runs.js";

// Most commands run in this process (runCli, as the binary does); the binary itself signs in (the
// password and the mailed code piped to its standard input, the credentials file it writes), one
// child process for the file (platform-command-runs.ts). The binary's exit code 1 is proved by
// packages/cli/src/start-mongo.test.ts (an unreachable database); a refusal here ends the same way.
const dir = mkdtempSync(join(tmpdir(), "platform-cli-"));
const outbox = join(dir, "outbox.jsonl");
const credentials = join(dir, "config", "credentials.json");
let base = "";
let platform: Platform;
let close: () => Promise<void>;

beforeAll(async () => {
  const demo = await buildDemoPlatform(
    {
      // The default scrypt cost (2^15), as shipped: the suite's one sign-in path at full cost
      // (the other stacks use LOW_COST_SCRYPT, test/support/low-cost-scrypt.ts).
      properties: { "platform.auth.ott.outbox-file": outbox },
    },
    {},
  );
  platform = demo.platform;
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  platform.resolve(ServerAddress).port = server.port;
  base = `http://localhost:${server.port}`;
  close = async () => {
    await server.close(true);
    await platform.stop();
  };
});
afterAll(() => close());

const env = { PLATFORM_CREDENTIALS: credentials };

/**
 * Runs a `platform` command in this process with its own credentials file. `feed` answers its
 * prompts; each line may wait for something first (the mailed code).
 */
function platformCli(args: string[], feed: ScriptedLine[] = []): Promise<PlatformRun> {
  return platformInProcess(args, feed, env);
}

/** The same through the real binary (stdin piped, credentials on disk shared with the in-process runs). */
function platformBin(args: string[], feed: ScriptedLine[] = []): Promise<PlatformRun> {
  return platformBinary(args, feed, env);
}

/** Waits for the newest MFA code mailed to `username` after `since` lines of the outbox. */
async function mailedCode(username: string, since: number): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const lines = await outboxLines();
    const hit = lines
      .slice(since)
      .reverse()
      .find((m) => m.channel === "mfa-code" && m.username === username);
    if (hit) return hit.token;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no code mailed");
}

async function outboxLines(): Promise<Array<{ channel: string; username: string; token: string }>> {
  try {
    return (await readFile(outbox, "utf8"))
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

describe("the platform command against a running server", () => {
  it("login (password, then the mailed code typed in), users add/list/disable/enable/unlock/reset-password/reset-factors, logout", async () => {
    const before = (await outboxLines()).length;
    const login = await platformBin(
      ["login", "--url", base, "--username", "admin", "--password-stdin"],
      ["admin", () => mailedCode("admin", before)],
    );
    expect(login.stderr).toContain("A sign-in code was sent");
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Signed in to ${base} as admin`);
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);
    expect(await readFile(credentials, "utf8")).not.toContain('"admin"\n');

    const added = await platformCli(
      ["users", "add", "kim", "--password-stdin", "--json"],
      ["kim-password-1"],
    );
    expect(added.code).toBe(0);
    const kim = JSON.parse(added.stdout).user as { id: string; username: string };
    expect(kim.username).toBe("kim");

    const list = await platformCli(["users", "list", "--json"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).users.map((u: { username: string }) => u.username)).toContain("kim");
    const table = await platformCli(["users", "list", "--query", "ki"]);
    expect(table.stdout).toMatch(/^kim\s+/m);

    expect((await platformCli(["users", "disable", "kim"])).stdout).toContain("DISABLED");
    expect((await platform.resolve(UserRepository).findById(kim.id))?.enabled).toBe(false);
    expect((await platformCli(["users", "enable", kim.id])).code).toBe(0);
    expect((await platformCli(["users", "unlock", "KIM"])).stdout).toContain("Unlocked kim");
    const reset = await platformCli(
      ["users", "reset-password", "kim", "--password-stdin"],
      ["kim-password-2"],
    );
    expect(reset.code).toBe(0);
    const signIn = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "kim", password: "kim-password-2" }),
    });
    expect(signIn.status).toBe(200);
    const apps = platform.resolve(TotpEnrolmentStore);
    await apps.begin({ userId: kim.id, sealedSecret: "sealed-for-the-test", createdAt: 1 });
    await apps.confirm(kim.id, "sealed-for-the-test", 1);
    expect((await platformCli(["users", "reset-factors", "kim"])).stdout).toBe(
      `Factors of kim (${kim.id}): removed TOTP\n`,
    );
    expect(JSON.parse((await platformCli(["users", "reset-factors", "kim", "--json"])).stdout)).toMatchObject(
      {
        ok: true,
        removed: [],
        user: { username: "kim" },
      },
    );

    // Failures: exit 1 with the server's code; usage errors: exit 2.
    const taken = await platformCli(["users", "add", "kim", "--no-password"]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("CONFLICT");
    expect((await platformCli(["users", "add"])).code).toBe(2);
    const lee = await platformCli(["users", "add", "lee", "--no-password", "--email", " Lee@Example.ORG "]);
    expect(lee.stdout).toMatch(/^Added lee \(.+\): ROLE_USER; enabled, no password; Lee@example\.org\n$/);
    expect((await platform.resolve(UserRepository).findByUsername("lee"))?.email).toBe("Lee@example.org");
    const badEmail = await platformCli(["users", "add", "lee2", "--no-password", "--email", "lee@@x"]);
    expect([badEmail.code, badEmail.stderr.includes("VALIDATION_FAILED")]).toEqual([1, true]);
    expect((await platformCli(["users", "disable", "nobody-here"])).code).toBe(1);

    await resourcesThroughTheCli();
    await policiesThroughTheCli();

    const logout = await platformCli(["logout"]);
    expect(logout.code).toBe(0);
    const after = await platformCli(["users", "list"]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain("NOT_LOGGED_IN");
  }, 120_000);

  it("a non-admin's commands are refused by the server (403 → exit 1, ACCESS_DENIED)", async () => {
    const login = await platformCli(
      ["login", "--url", base, "--username", "user", "--password-stdin"],
      ["password"],
    );
    expect(login.code).toBe(0);
    const list = await platformCli(["users", "list"]);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain("ACCESS_DENIED");
    const resources = await platformCli(["resources", "list"]);
    expect([resources.code, resources.stderr]).toEqual([1, expect.stringContaining("ACCESS_DENIED")]);
    const policies = await platformCli(["policies", "list"]);
    expect([policies.code, policies.stderr]).toEqual([1, expect.stringContaining("ACCESS_DENIED")]);
    await platformCli(["logout"]);
  }, 60_000);

  it("a wrong password exits 1 with BAD_CREDENTIALS and stores nothing", async () => {
    const login = await platformCli(
      ["login", "--url", base, "--username", "user", "--password-stdin"],
      ["wrong"],
    );
    expect(login.code).toBe(1);
    expect(login.stderr).toContain("BAD_CREDENTIALS");
    const list = await platformCli(["users", "list"]);
    expect(list.stderr).toContain("NOT_LOGGED_IN");
  }, 60_000);
});

/**
 * `platform resources list | show | define | exclude | restore` as the signed-in admin, on a
 * resource the demo's route scanner entered at start.
 */
async function resourcesThroughTheCli(): Promise<void> {
  const key = { resourceType: "URL", resourceIdentifier: "/api/orders/{id}", httpMethod: "GET" } as const;
  const probe = await platform.resolve(ManagedResourceRepository).findByKey(key);
  if (!probe) throw new Error("the demo's GET /api/orders/{id} is not a managed resource");
  const listed = await platformCli([
    "resources",
    "list",
    "--owner",
    probe.serviceOwner,
    "--type",
    "URL",
    "--json",
  ]);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).items.map((r: { id: string }) => r.id)).toContain(probe.id);
  const table = await platformCli([
    "resources",
    "list",
    "--query",
    "API/ORDERS/{ID}",
    "--status",
    "NEEDS_DEFINITION",
  ]);
  expect(table.stdout).toContain("NEEDS_DEFINITION   GET /api/orders/{id}");
  expect((await platformCli(["resources", "exclude", probe.id])).stdout).toContain("EXCLUDED");
  const illegal = await platformCli(["resources", "define", probe.id]);
  expect([illegal.code, illegal.stderr]).toEqual([1, expect.stringContaining("ILLEGAL_STATE_TRANSITION")]);
  expect((await platformCli(["resources", "restore", probe.id])).stdout).toContain("NEEDS_DEFINITION");
  // Named at start (background), then excluded and restored: two versions past what was read above.
  const version = String(probe.version + 2);
  const defined = await platformCli([
    "resources",
    "define",
    probe.id,
    "--name",
    "Read an order",
    "--version",
    version,
  ]);
  expect(defined.stdout).toContain("PERMISSION_CREATED");
  const shown = await platformCli(["resources", "show", probe.id]);
  expect(shown.stdout).toContain("permission:  Read an order");
  expect(shown.stdout).toContain("connected policies: none");
  // The demo's "Orders: signed-in users" (`/api/orders/**`, ANY) covers it without naming it.
  expect(shown.stdout).toMatch(
    /impact:\n {2}Orders: signed-in users \[.*\] broader via ANY \/api\/orders\/\*\*/,
  );
  expect((await platformCli(["resources", "show", "no such id"])).code).toBe(2);
  expect((await platformCli(["resources", "list", "--limit", "500"])).stderr).toContain("VALIDATION_FAILED");
}

/**
 * `platform policies list | create --file | simulate | history` as the signed-in admin: a policy
 * created from a file is MANUAL and NOT_REQUIRED, decides at once, and has its history.
 */
async function policiesThroughTheCli(): Promise<void> {
  const file = join(dir, "policy.json");
  const policy = {
    name: "CLI probe",
    effect: "ALLOW",
    priority: -1000,
    targets: [{ targetType: "URL", targetIdentifier: "/cli-probe/**" }],
    rules: [{ name: "auditors", conditions: [{ expression: "hasRole('AUDITOR')" }] }],
  };
  await writeFile(file, JSON.stringify(policy));
  const created = await platformCli(["policies", "create", "--file", file, "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const made = JSON.parse(created.stdout).policy as { id: string; source: string; approvalStatus: string };
  expect(made).toMatchObject({ source: "MANUAL", approvalStatus: "NOT_REQUIRED" });

  const listed = await platformCli(["policies", "list", "--query", "cli probe"]);
  expect(listed.stdout).toContain(`CLI probe  [${made.id}] NOT_REQUIRED  ANY /cli-probe/**`);
  const json = JSON.parse((await platformCli(["policies", "list", "--source", "MANUAL", "--json"])).stdout);
  expect(json.policies.map((p: { id: string }) => p.id)).toContain(made.id);

  const granted = await platformCli(["policies", "simulate", "--path", "/cli-probe/x", "--roles", "AUDITOR"]);
  expect(granted.stdout).toMatch(/^GRANTED by CLI probe: GET \/cli-probe\/x \(/);
  const denied = await platformCli([
    "policies",
    "simulate",
    "--path",
    "/cli-probe/x",
    "--anonymous",
    "--json",
  ]);
  expect(JSON.parse(denied.stdout).decision.granted).toBe(false);
  expect((await platformCli(["policies", "simulate", "--path", "/x"])).code).toBe(2);

  const history = await platformCli(["policies", "history", made.id]);
  expect(history.stdout).toMatch(/^v1 CREATED\s+by admin at \d{4}-\d\d-\d\dT/);
  expect(
    JSON.parse((await platformCli(["policies", "history", made.id, "--json"])).stdout).revisions,
  ).toHaveLength(1);

  // Refusals: usage (2) before any call, the server's code (1) after.
  await writeFile(file, JSON.stringify({ ...policy, source: "AI_GENERATED" }));
  expect((await platformCli(["policies", "create", "--file", file])).code).toBe(2);
  await writeFile(file, "{not json");
  expect((await platformCli(["policies", "create", "--file", file])).stderr).toContain("MALFORMED_JSON");
  await writeFile(file, JSON.stringify({ ...policy, targets: [] }));
  expect((await platformCli(["policies", "create", "--file", file])).stderr).toContain("VALIDATION_FAILED");
  expect((await platformCli(["policies", "create", "--file", join(dir, "missing.json")])).code).toBe(1);
  expect((await platformCli(["policies", "create"])).code).toBe(2);
  expect((await platformCli(["policies", "history", "../etc"])).code).toBe(2);
  expect((await platformCli(["policies", "history", made.id, "--limit", "0"])).code).toBe(2);
  expect((await platformCli(["policies", "history", "no-such-policy"])).stderr).toContain("NOT_FOUND");
}
