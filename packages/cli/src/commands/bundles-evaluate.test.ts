import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBundleCatalog } from "@keyward/core/prompts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import { CredentialsFile } from "../remote/credentials-file.js";
import { PLATFORM_COMMANDS } from "./index.js";

// The server is real (127.0.0.1) and answers the evidence endpoint as the admin API would: it
// echoes what was posted as a recorded piece of evidence, so the test reads what the CLI sent.
const V20 = "2026.09.15-v20";
const PATH = "/platform/admin/api/prompt-quality/evidence";
let server: Server;
let base: string;
type Posted = { kind: string; promptVersion: string; bundleHash: string; content: { cases: unknown[] } };
let posts: { auth: string | undefined; body: Posted }[] = [];
let answer: (body: Posted) => { status: number; body: unknown };
const dir = mkdtempSync(join(tmpdir(), "cli-evaluate-"));
const credentials = join(dir, "credentials.json");
let hash: string | undefined;
/** v20's manifest hash, read once. */
const hashV20 = () => (hash ??= loadBundleCatalog().find(V20)!.manifest.bundleHash);

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
  answer = (b) => ({
    status: 201,
    body: {
      id: "ev-1",
      kind: b.kind,
      promptVersion: b.promptVersion,
      bundleHash: b.bundleHash,
      recordedBy: "admin",
      contentHash: "c".repeat(64),
    },
  });
  rmSync(credentials, { force: true });
});
const login = () =>
  new CredentialsFile(credentials).put(base, {
    username: "admin",
    accessToken: "tok",
    refreshToken: "ref",
    accessExpiresAt: Date.now() + 600_000,
  });

async function run(...argv: string[]) {
  const io = memoryCliIo([], { PLATFORM_CREDENTIALS: credentials });
  const code = await runCli(argv, PLATFORM_COMMANDS, io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

describe("platform bundles evaluate", () => {
  it("--dry-run --json runs the manifest's families with the offline analyst and posts nothing", async () => {
    const { code, out } = await run("bundles", "evaluate", V20, "--repetitions", "1", "--dry-run", "--json");
    expect(code).toBe(0);
    const { run: record } = JSON.parse(out);
    expect(record).toMatchObject({
      format: "evaluation-run/1",
      promptVersion: V20,
      repetitions: 1,
      model: { provider: "builtin" },
    });
    expect(record.families).toEqual(["PROMPT_INJECTION", "TOOL_MISUSE", "MEMORY_POISONING", "MISSING_FACTS"]);
    expect(posts).toEqual([]);
  });

  it("posts the run as EVALUATION_RUN with the administrator's token, bound to the manifest's hash", async () => {
    await login();
    const { code, out, err } = await run(
      "bundles",
      "evaluate",
      V20,
      "--repetitions",
      "1",
      "--families",
      "TOOL_MISUSE",
    );
    expect(code).toBe(0);
    expect(err).toMatch(/^TM-01 #1 (ALLOW|CHALLENGE|ESCALATE|BLOCK) +(pass|FAIL) \d+ ms$/m);
    expect(posts).toHaveLength(1);
    const { auth, body } = posts[0]!;
    expect(auth).toBe("Bearer tok");
    expect(body).toMatchObject({
      kind: "EVALUATION_RUN",
      promptVersion: V20,
      bundleHash: hashV20(),
    });
    expect(body.content.cases).toHaveLength(10);
    expect(body).not.toHaveProperty("recordedBy");
    expect(out).toMatch(/TOOL_MISUSE +\d+\/10 passed/);
    expect(out).toMatch(/Recorded EVALUATION_RUN ev-1 for 2026\.09\.15-v20 .* as admin/);
  });

  it("checks the login before it runs anything", async () => {
    const { code, err } = await run("bundles", "evaluate", V20);
    expect(code).toBe(1);
    expect(err).toMatch(/NOT_LOGGED_IN/);
  });

  it("prints the server's refusal with its code", async () => {
    await login();
    answer = () => ({
      status: 400,
      body: {
        code: "EVIDENCE_INVALID",
        message: "The evidence does not have its kind's shape",
      },
    });
    const { code, err } = await run(
      "bundles",
      "evaluate",
      V20,
      "--repetitions",
      "1",
      "--families",
      "MISSING_FACTS",
    );
    expect(code).toBe(1);
    expect(err).toMatch(/platform: EVIDENCE_INVALID: The evidence does not have/);
  });

  it.each([
    [["--repetitions", "0"], 2, /--repetitions takes a whole number from 1 to 20/],
    [["--repetitions", "1e3"], 2, /--repetitions/],
    [["--families", "prompt injection"], 2, /--families takes family names/],
    [["--families", "NOT_A_FAMILY", "--dry-run"], 1, /VALIDATION_FAILED: families must be distinct names/],
  ])("refuses %j", async (args, exit, pattern) => {
    const { code, err } = await run("bundles", "evaluate", V20, ...(args as string[]));
    expect(code).toBe(exit);
    expect(err).toMatch(pattern);
  });

  it("reads --config and refuses an unknown key, a record version and a missing version", async () => {
    const config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({ "platform.security.decision.model.provider": "builtin", "platform.typo": 1 }),
    );
    expect((await run("bundles", "evaluate", V20, "--config", config, "--dry-run")).err).toMatch(
      /PROPERTY_INVALID: Unknown property platform.typo/,
    );
    expect((await run("bundles", "evaluate", "2026.05.12-v18", "--dry-run")).err).toMatch(
      /PROMPT_BUNDLE_NOT_IN_BUILD/,
    );
    expect((await run("bundles", "evaluate")).code).toBe(2);
  });
});

describe("platform releases evidence add", () => {
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("posts the file's content as the kind, bound to this build's hash", async () => {
    await login();
    const path = file("change.json", JSON.stringify({ summary: "Dictionary blocks.", risk: "MEDIUM" }));
    const { code, out } = await run(
      "releases",
      "evidence",
      "add",
      "--kind",
      "CHANGE_RECORD",
      "--version",
      V20,
      "--file",
      path,
      "--json",
    );
    expect(code).toBe(0);
    expect(posts[0]!.body).toEqual({
      kind: "CHANGE_RECORD",
      promptKey: "cortex.security-decision",
      promptVersion: V20,
      bundleHash: hashV20(),
      content: { summary: "Dictionary blocks.", risk: "MEDIUM" },
    });
    expect(JSON.parse(out).record.id).toBe("ev-1");
  });

  it("refuses a hostile answer from the server", async () => {
    await login();
    answer = () => ({ status: 201, body: { id: "ev-1\u001b[2J", kind: "CHANGE_RECORD" } });
    const path = file("c2.json", "{}");
    const { code, err } = await run(
      "releases",
      "evidence",
      "add",
      "--kind",
      "CACHE_POLICY",
      "--version",
      V20,
      "--file",
      path,
    );
    expect(code).toBe(1);
    expect(err).toMatch(/SERVER_ANSWER_INVALID/);
  });

  it.each([
    [["--kind", "EVALUATION_RUN"], 2, /comes from `platform bundles evaluate/],
    [["--kind", "PASSED"], 2, /--kind must be one of/],
    [["--kind", "CHANGE_RECORD", "--version", V20], 2, /--file <json> is required/],
    [["--kind", "CHANGE_RECORD", "--version", V20, "--file", "/nonexistent.json"], 1, /NOT_FOUND/],
    [
      ["--kind", "CHANGE_RECORD", "--version", V20, "--bundle-hash", "XYZ", "--file", "x"],
      2,
      /--bundle-hash/,
    ],
    [["--kind", "CHANGE_RECORD", "--version", "v99", "--file", "SMALL"], 1, /No manifest of version v99/],
    [["--kind", "CHANGE_RECORD", "--version", V20, "--file", "BAD"], 1, /MALFORMED_JSON/],
    [["--kind", "CHANGE_RECORD", "--version", V20, "--file", "BIG"], 1, /larger than 64 KiB/],
  ])("refuses %j", async (args, exit, pattern) => {
    const paths: Record<string, string> = {
      SMALL: file("small.json", "{}"),
      BAD: file("bad.json", "{not json"),
      BIG: file("big.json", JSON.stringify({ summary: "x".repeat(70_000) })),
    };
    const argv = (args as string[]).map((a) => paths[a] ?? a);
    const { code, err } = await run("releases", "evidence", "add", ...argv);
    expect(code).toBe(exit);
    expect(err).toMatch(pattern);
    expect(posts).toEqual([]);
  });
});
