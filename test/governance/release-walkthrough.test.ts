import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformInProcess } from "../cli/platform-command-runs.js";
import type { RunningDemo } from "../support/demo-server.js";
import { PROMPT_KEY, startReleaseDemo, V18, V19, V20 } from "./release-demo.js";

// The README's walkthrough on the demo, command by command, with nothing put into the registry by
// hand: v20 reaches CANARY on real evidence (people's records and a run of `platform bundles
// evaluate` with the built-in analyst), ACTIVE stays blocked by the evidence it lacks, a rollback
// from v20 to v19 runs, and one from v19 is refused (TARGET_NOT_IN_BUILD).
const EXAMPLES = "prompt-bundles/evidence-examples/2026.09.15-v20";

let demo: RunningDemo;
const env = {
  PLATFORM_CREDENTIALS: join(mkdtempSync(join(tmpdir(), "platform-walkthrough-")), "admin.json"),
};
const platform = (...args: string[]) => platformInProcess(args, [], env);

beforeAll(async () => {
  demo = await startReleaseDemo();
  const login = await platformInProcess(
    ["login", "--url", demo.base, "--username", "admin", "--password-stdin"],
    ["admin"],
    env,
  );
  expect(login.code, login.stderr).toBe(0);
});
afterAll(() => demo.close());

const statuses = async () => {
  const list = await platform("releases", "list", "--json");
  const answer = JSON.parse(list.stdout) as {
    scopes: { releases: { promptVersion: string; status: string }[] }[];
  };
  return Object.fromEntries(answer.scopes[0]!.releases.map((r) => [r.promptVersion, r.status]));
};

describe("the README's prompt-release walkthrough", () => {
  it("v20 reaches CANARY on recorded evidence and an evaluation run; ACTIVE stays blocked", async () => {
    for (const [kind, file] of [
      ["CHANGE_RECORD", "change-record.json"],
      ["MODEL_COMPATIBILITY", "model-compatibility.json"],
      ["BUDGET_PROFILE", "budget-profile.json"],
    ] as const) {
      const add = await platform(
        "releases",
        "evidence",
        "add",
        "--kind",
        kind,
        "--version",
        V20,
        "--file",
        join(EXAMPLES, file),
      );
      expect(add.code, `${kind}: ${add.stderr}`).toBe(0);
    }
    const run = await platform("bundles", "evaluate", V20, "--repetitions", "1");
    expect(run.code, run.stderr).toBe(0);
    for (const [to, share] of [
      ["SHADOW", []],
      ["CANARY", ["--canary-percent", "10"]],
    ] as const) {
      const step = await platform(
        "releases",
        "transition",
        V20,
        "--key",
        PROMPT_KEY,
        "--to",
        to,
        ...share,
        "--rationale",
        `v20 to ${to}`,
      );
      expect(step.code, `${to}: ${step.stdout}${step.stderr}`).toBe(0);
    }
    expect(await statuses()).toMatchObject({ [V19]: "ACTIVE", [V20]: "CANARY" });
    // The README's "a share of requests": 10% of requesters, shown by `releases list`.
    expect((await platform("releases", "list")).stdout).toMatch(/CANARY\s+\S+ 2026\.09\.15-v20 .*canary 10%/);

    const active = await platform(
      "releases",
      "transition",
      V20,
      "--key",
      PROMPT_KEY,
      "--to",
      "ACTIVE",
      "--rationale",
      "all of it",
      "--dry-run",
    );
    expect(active.code).toBe(1);
    // The built-in analyst lets 2 of 11 injections through, one repetition is no empirical
    // evaluation, and the policies ACTIVE needs were never recorded.
    for (const blocker of [
      "PROMPT_INJECTION_GATE_FAILED",
      "EMPIRICAL_EVAL_MISSING",
      "TOKEN_COUNTING_POLICY_MISSING",
      "CACHE_POLICY_MISSING",
      "COMPACTION_POLICY_MISSING",
    ])
      expect(active.stdout + active.stderr).toContain(blocker);
  });

  it("a rollback from the executing v20 to v19 runs; one from v19 to v18 is refused: v18 is not in this build", async () => {
    const back = await platform(
      "releases",
      "rollback",
      "--key",
      PROMPT_KEY,
      "--from",
      V20,
      "--to",
      V19,
      "--reason",
      "v20 blocks too much",
    );
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.stdout).toContain("EXECUTED");
    expect(await statuses()).toMatchObject({ [V19]: "ACTIVE", [V20]: "DEPRECATED" });

    const older = await platform(
      "releases",
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
    expect(older.code).toBe(1);
    expect(older.stdout + older.stderr).toMatch(/FAILED\s+TARGET_NOT_IN_BUILD/);
    expect(await statuses()).toMatchObject({ [V19]: "ACTIVE", [V20]: "DEPRECATED" });
  });
});
