import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_KEY, putRelease, startReleaseDemo, V18, V19, V20 } from "../governance/release-demo.js";
import type { RunningDemo } from "../support/demo-server.js";
import { platformInProcess } from "./platform-command-runs.js";

// `platform releases` in this process against one started demo, as two administrators with their
// own credentials files (an emergency stop needs a second one).
const dir = mkdtempSync(join(tmpdir(), "platform-releases-"));
const as = {
  admin: { PLATFORM_CREDENTIALS: join(dir, "admin.json") },
  admin2: { PLATFORM_CREDENTIALS: join(dir, "admin2.json") },
};
let demo: RunningDemo;

beforeAll(async () => {
  demo = await startReleaseDemo();
  for (const name of ["admin", "admin2"] as const) {
    const login = await platformInProcess(
      ["login", "--url", demo.base, "--username", name, "--password-stdin"],
      [name],
      as[name],
    );
    expect(login.code, login.stderr).toBe(0);
  }
});
afterAll(() => demo.close());

const releases = (who: keyof typeof as, ...args: string[]) =>
  platformInProcess(["releases", ...args], [], as[who]);

describe("platform releases", () => {
  it("each subcommand has --help", async () => {
    for (const sub of ["list", "history", "transition", "rollback", "approve"]) {
      const help = await releases("admin", sub, "--help");
      expect(help.code, sub).toBe(0);
      expect(help.stdout).toContain(`releases ${sub}`);
    }
  });

  it("list shows the releases in canonical states, in text and --json", async () => {
    const text = await releases("admin", "list");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`ACTIVE\\s+${PROMPT_KEY} ${V19}`));
    const json = await releases("admin", "list", "--json");
    const answer = JSON.parse(json.stdout) as {
      ok: boolean;
      scopes: { releases: { promptVersion: string; status: string }[] }[];
    };
    expect(answer.ok).toBe(true);
    const status = new Map(answer.scopes[0]!.releases.map((r) => [r.promptVersion, r.status]));
    expect([status.get(V19), status.get(V20)]).toEqual(["ACTIVE", "AVAILABLE"]);
  });

  it("transition --dry-run exits 1 with the blockers printed, an older name read as its canonical state", async () => {
    const before = await releases("admin", "history", "--json");
    const run = await releases(
      "admin",
      "transition",
      V20,
      "--key",
      PROMPT_KEY,
      "--to",
      "PRODUCTION",
      "--rationale",
      "try",
      "--dry-run",
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`Dry run: would be BLOCKED ${V20}: AVAILABLE -> ACTIVE`);
    expect(run.stdout).toContain("blocked by ILLEGAL_STATE_TRANSITION");
    expect((await releases("admin", "history", "--json")).stdout).toBe(before.stdout);
    const json = await releases(
      "admin",
      "transition",
      V20,
      "--key",
      PROMPT_KEY,
      "--to",
      "SHADOW",
      "--rationale",
      "try",
      "--json",
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      receipt: { outcome: "BLOCKED", targetStatus: "SHADOW" },
    });
  });

  it("refuses a wrong command line with exit 2, before calling the server", async () => {
    expect((await releases("admin", "transition", V20, "--to", "SHADOW", "--rationale", "x")).code).toBe(2);
    expect((await releases("admin", "transition", "--key", PROMPT_KEY)).code).toBe(2);
    expect((await releases("admin", "approve", "not-a-key")).code).toBe(2);
    expect((await releases("admin", "history", "--limit", "0")).code).toBe(2);
    expect(
      (await releases("admin", "rollback", "--key", "../x", "--from", V20, "--to", V19, "--reason", "r"))
        .code,
    ).toBe(2);
  });

  it("rollback exits 1 when refused, with every condition printed", async () => {
    const run = await releases(
      "admin",
      "rollback",
      "--key",
      PROMPT_KEY,
      "--from",
      V19,
      "--to",
      V18,
      "--reason",
      "undo v19",
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^REFUSED RBX-/);
    expect(run.stdout).toMatch(/FAILED\s+TARGET_NOT_IN_BUILD/);
  });

  it("an emergency stop waits for another administrator: its operator's approval fails, admin2's ratifies", async () => {
    await putRelease(demo, V20, "CANARY");
    const stop = await releases(
      "admin",
      "rollback",
      "--key",
      PROMPT_KEY,
      "--from",
      V20,
      "--to",
      V19,
      "--reason",
      "v20 blocks too much",
      "--emergency",
      "--json",
    );
    expect(stop.code).toBe(0);
    const { execution } = JSON.parse(stop.stdout) as { execution: { executionKey: string; status: string } };
    expect(execution.status).toBe("AWAITING_APPROVAL");
    expect((await releases("admin", "list")).stdout).toContain(`AWAITING_APPROVAL ${execution.executionKey}`);
    const own = await releases("admin", "approve", execution.executionKey);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain("APPROVAL_BY_OPERATOR_FORBIDDEN");
    const other = await releases("admin2", "approve", execution.executionKey, "--rationale", "checked");
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toContain(`RATIFIED ${execution.executionKey}`);
  });

  it("history lists what was recorded, newest first", async () => {
    const run = await releases("admin", "history", "--limit", "5");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("TRANSITION_BLOCKED");
  });
});
