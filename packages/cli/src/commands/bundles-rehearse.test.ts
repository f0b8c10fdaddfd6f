import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import { CredentialsFile } from "../remote/credentials-file.js";
import { PLATFORM_COMMANDS } from "./index.js";

// A real server on 127.0.0.1 answering the rehearsal endpoint as the admin API would (the core's
// own tests run the rehearsal; this one reads what the CLI sends and prints).
const V20 = "2026.09.15-v20";
const PATH = "/platform/admin/api/prompt-inspection/rehearsals";
let server: Server;
let base: string;
let posts: { auth: string | undefined; body: Record<string, unknown> }[] = [];
let answer: (body: Record<string, unknown>) => { status: number; body: unknown };
const dir = mkdtempSync(join(tmpdir(), "cli-rehearse-"));
const credentials = join(dir, "credentials.json");

function summary(failed: number) {
  const findings = Array.from({ length: 7 }, (_, i) => ({
    packageId: `pkg-${i}`,
    check: "FACT_ACCURACY",
    kind: i < failed ? "MISMATCH" : "UNVERIFIABLE",
    reason: i < failed ? "VALUE_DIFFERS" : "REDACTED",
    detail: `subject reads "alicf", the context says "alice"\u001b[2J`,
    layer: "L1",
    line: 4,
    text: "2. subject: alicf [F2]",
  }));
  return {
    inspectorVersion: "prompt-inspector/1",
    dictionaryVersion: "v20@9d87255aa312",
    candidate: { promptVersion: V20, bundleHash: "a".repeat(64), layout: "v20-dictionary-blocks" },
    period: { from: 0, to: 86_400_000 },
    checks: [
      { check: "FACT_ACCURACY", pass: 3, mismatch: failed, unverifiable: 7 - failed, notApplicable: 0 },
    ],
    packages: 10,
    truncated: true,
    skipped: { shadow: 2, erased: 0, unreadable: 0 },
    verdicts: { PASS: 3, FAIL: failed, INCOMPLETE: 7 - failed, NOT_APPLICABLE: 0, ERROR: 0 },
    overBudget: 0,
    omitted: [],
    reasons: [],
    findings,
  };
}
const recorded = {
  id: "ev-9",
  kind: "REHEARSAL",
  promptVersion: V20,
  bundleHash: "a".repeat(64),
  recordedBy: "admin",
  contentHash: "c".repeat(64),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== PATH) return res.writeHead(404).end();
      const body = JSON.parse(text);
      posts.push({ auth: req.headers.authorization, body });
      const a = answer(body);
      res.writeHead(a.status, { "content-type": "application/json" }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  posts = [];
  answer = (b) => ({ status: 200, body: { rehearsal: summary(2), record: b.record ? recorded : null } });
  await new CredentialsFile(credentials).put(base, {
    username: "admin",
    accessToken: "tok",
    refreshToken: "ref",
    accessExpiresAt: Date.now() + 600_000,
  });
});

async function run(...argv: string[]) {
  const io = memoryCliIo([], { PLATFORM_CREDENTIALS: credentials });
  const code = await runCli(argv, PLATFORM_COMMANDS, io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

describe("platform bundles rehearse", () => {
  it("asks the server, prints counts per verdict and check and the first findings on their lines, exit 1 on a mismatch", async () => {
    const { code, out } = await run(
      "bundles",
      "rehearse",
      V20,
      "--from",
      "2026-09-01T00:00:00Z",
      "--limit",
      "10",
    );
    expect(code).toBe(1);
    expect(posts).toEqual([
      { auth: "Bearer tok", body: { candidate: V20, from: "2026-09-01T00:00:00Z", limit: 10, record: true } },
    ]);
    expect(out).toContain("verdicts: PASS 3, FAIL 2, INCOMPLETE 5, NOT_APPLICABLE 0, ERROR 0");
    expect(out).toContain("FACT_ACCURACY          pass 3, mismatch 2, unverifiable 5, not applicable 0");
    expect(out).toContain("MISMATCH FACT_ACCURACY VALUE_DIFFERS in pkg-0 L1 line 4:");
    expect(out).toContain("      | 2. subject: alicf [F2]");
    expect(out).toContain("… 2 more findings in the record");
    expect(out).toContain("more in the period");
    expect(out).toContain("Recorded REHEARSAL ev-9");
    expect(out).not.toContain("\u001b");
  });

  it("--dry-run --json records nothing, exit 0 when nothing failed", async () => {
    answer = () => ({ status: 200, body: { rehearsal: summary(0), record: null } });
    const { code, out } = await run("bundles", "rehearse", V20, "--dry-run", "--json", "--to", "86400000");
    expect(code).toBe(0);
    expect(posts[0]!.body).toEqual({ candidate: V20, to: 86_400_000, record: false });
    expect(JSON.parse(out)).toMatchObject({ ok: true, record: null, rehearsal: { packages: 10 } });
  });

  it.each([
    [["bundles", "rehearse"], /exactly one <candidate>/],
    [["bundles", "rehearse", "../x"], /bundle version/],
    [["bundles", "rehearse", V20, "--limit", "1001"], /--limit/],
    [["bundles", "rehearse", V20, "--from", "yesterday"], /--from/],
  ])("refuses %j before asking anything", async (argv, pattern) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(pattern);
    expect(posts).toEqual([]);
  });

  it("a hostile answer is SERVER_ANSWER_INVALID, never a crash; a refusal names its code", async () => {
    answer = () => ({ status: 200, body: { rehearsal: { ...summary(1), findings: [{ packageId: 1 }] } } });
    const bad = await run("bundles", "rehearse", V20);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/SERVER_ANSWER_INVALID/);
    answer = () => ({
      status: 400,
      body: { code: "PROMPT_BUNDLE_NOT_IN_BUILD", message: "not in the build" },
    });
    const refused = await run("bundles", "rehearse", "2099.01.01-v99");
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/PROMPT_BUNDLE_NOT_IN_BUILD/);
  });
});
