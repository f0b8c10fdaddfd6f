import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_BUNDLE_ROOT } from "@keyward/core/prompts";
import { afterAll, describe, expect, it } from "vitest";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import { PLATFORM_COMMANDS } from "./index.js";

const V19 = "2026.07.30-v19";
const V20 = "2026.09.15-v20";
const input = (name: string) => join(DEFAULT_BUNDLE_ROOT, "golden", "inputs", `${name}.json`);
const golden = (version: string, file: string) =>
  readFileSync(join(DEFAULT_BUNDLE_ROOT, "golden", "renders", version, file), "utf8");
const tmp = mkdtempSync(join(tmpdir(), "cli-bundles-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const io = memoryCliIo();
  const code = await runCli(argv, PLATFORM_COMMANDS, io);
  return { code, out: io.stdout.join(""), err: io.stderr.join("") };
}

describe("platform bundles", () => {
  it("list: the runnable bundles and the records, with hashes", async () => {
    const { code, out } = await run("bundles", "list", "--json");
    expect(code).toBe(0);
    const rows = (
      JSON.parse(out) as { bundles: { version: string; runnable: boolean; buildDefault: boolean }[] }
    ).bundles;
    expect(rows.map((r) => [r.version, r.runnable, r.buildDefault])).toEqual([
      ["2026.02.03-v17", false, false],
      ["2026.05.12-v18", false, false],
      [V19, true, true],
      [V20, true, false],
    ]);
  });

  it("verify: OK on the build's manifests", async () => {
    const { code, out } = await run("bundles", "verify");
    expect(code).toBe(0);
    expect(out).toBe("OK: 4 manifests, 2 runnable and 2 records; every hash matches");
  });

  it("verify: a tampered manifest fails with its code, naming the manifest (exit 1)", async () => {
    const root = join(tmp, "tampered", "prompt-bundles");
    cpSync(DEFAULT_BUNDLE_ROOT, root, { recursive: true });
    const file = join(root, "manifests", "cortex.security-decision", `${V20}.json`);
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), bundleHash: "1".repeat(64) }),
    );
    const { code, err } = await run("bundles", "verify", "--root", root);
    expect(code).toBe(1);
    expect(err).toMatch(
      /^platform: PROMPT_BUNDLE_HASH_MISMATCH: prompt-bundles\/manifests\/cortex\.security-decision\/2026\.09\.15-v20\.json: /,
    );
  });

  it("hash: a bundle's hash and its eleven element records, as the manifest holds them", async () => {
    const { code, out } = await run("bundles", "hash", V19, "--json");
    expect(code).toBe(0);
    const manifest = JSON.parse(
      readFileSync(join(DEFAULT_BUNDLE_ROOT, "manifests", "cortex.security-decision", `${V19}.json`), "utf8"),
    );
    expect(JSON.parse(out).bundles).toEqual([
      { version: V19, bundleHash: manifest.bundleHash, elements: manifest.elements },
    ]);
    const text = await run("bundles", "hash", V19);
    expect(text.out.split("\n")).toHaveLength(12);
    expect((await run("bundles", "hash", "2030.01.01-v99")).code).toBe(1);
  });

  it.each([
    [V19, "long-history", "L1-standard"],
    [V20, "partly-known", "L2-deep"],
  ])(
    "render %s of %s under %s: the committed golden render, byte for byte",
    async (version, name, profile) => {
      const { code, out, err } = await run(
        "bundles",
        "render",
        version,
        "--input",
        input(name),
        "--profile",
        profile,
        "--part",
        "user",
      );
      expect(code).toBe(0);
      expect(out).toBe(golden(version, `${name}.${profile}.txt`));
      expect(err).toContain(`${version} ${profile}: system `);
    },
  );

  it("render: the system text and the user prompt together by default", async () => {
    const { out } = await run("bundles", "render", V20, "--input", input("internal-read"));
    expect(out.startsWith("=== SYSTEM INSTRUCTION ===\n")).toBe(true);
    expect(out.endsWith(golden(V20, "internal-read.L1-standard.txt"))).toBe(true);
  });

  it("render: a record is not run by this build (exit 1)", async () => {
    const { code, err } = await run("bundles", "render", "2026.05.12-v18", "--input", input("internal-read"));
    expect(code).toBe(1);
    expect(err).toContain("PROMPT_BUNDLE_NOT_IN_BUILD");
  });

  it("render: a bad input names the field (exit 1); a missing --input or a bad profile is a usage error (exit 2)", async () => {
    const bad = join(tmp, "bad-input.json");
    writeFileSync(bad, JSON.stringify({ eventId: "e", request: { time: "yesterday" } }));
    const r = await run("bundles", "render", V19, "--input", bad, "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).error.code).toBe("PROMPT_INPUT_INVALID");
    expect((await run("bundles", "render", V19)).code).toBe(2);
    expect((await run("bundles", "render", V19, "--input", bad, "--profile", "L9")).code).toBe(2);
  });
});
