import { PLATFORM_COMMANDS, runCli } from "@keyward/cli";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryCliIo } from "../../packages/cli/src/command-line/memory-cli-io.js";
import { json, mfaBearerToken, type RunningDemo, startDemo } from "../support/demo-server.js";

// The README's escalation setup: `user`'s sign-in after one wrong password is held for review.
const README_ENV = {
  PLATFORM_AUTH_MFA_POLICY: "adaptive",
  SECURITY_ZEROTRUST_THRESHOLDS_REQUIRED: "0.55",
  SECURITY_ZEROTRUST_THRESHOLDS_STRICT: "0.55",
};
const credentials = join(mkdtempSync(join(tmpdir(), "platform-cli-esc-")), "credentials.json");

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo(README_ENV);
});
afterAll(() => demo.close());

async function adminToken(): Promise<string> {
  return mfaBearerToken(demo, "admin2", "admin2");
}

describe("platform login on a sign-in held for review", () => {
  it("waits with progress, then stores the tokens once another administrator approves", async () => {
    expect(
      (await fetch(`${demo.base}/api/login`, json("POST", { username: "user", password: "wrong" }))).status,
    ).toBe(401);
    // In this process (runCli, as the binary does): the binary's own stdin and exit are covered in
    // platform-cli.test.ts.
    const io = memoryCliIo(["password"], { PLATFORM_CREDENTIALS: credentials });
    const exit = runCli(
      ["login", "--url", demo.base, "--username", "user", "--password-stdin"],
      PLATFORM_COMMANDS,
      io,
    );
    const output = (lines: string[]) => lines.join("\n");
    for (let i = 0; i < 300 && !output(io.stderr).includes("held for review"); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(output(io.stderr)).toContain("held for review by an administrator");

    const token = await adminToken();
    const list = (await (
      await fetch(`${demo.base}/admin/api/mfa/escalations`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as Array<{ id: string; username: string }>;
    const held = list.find((e) => e.username === "user")!;
    const approve = await fetch(`${demo.base}/admin/api/mfa/escalations/${held.id}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(approve.status).toBe(200);
    expect(await exit).toBe(0);
    expect(output(io.stderr)).toContain("Approved.");
    expect(output(io.stdout)).toContain(`Signed in to ${demo.base} as user`);
  }, 90_000);
});
