// The packages as a user gets them: every package built (`pnpm build`) and packed (`pnpm pack`), the
// tarballs installed together into a throwaway project outside the workspace (under os.tmpdir()),
// third-party packages from the pnpm store (`--offline`; consumer-lockfile.ts), and there plain Node
// ESM starts a platform and signs in over REST, and a strict tsc compiles a consumer file against the
// declarations (started as soon as the install ends, beside the other tests). Builds unless `.ci/run` says it built this checkout in this run (KEYWARD_BUILT=1), and
// packs unless `.ci/run` packed that build already (KEYWARD_TARBALLS=<dir>, which its publish dry run
// reuses: the same `pnpm pack`, once per run).
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerLockfile, type PackedPackage } from "./consumer-lockfile.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FOLDERS = ["core", "adapters-http", "adapters-mongo", "sdk-browser", "cli"];
const CONSUMER_FILES = fileURLToPath(new URL("./consumer/", import.meta.url));

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, CI: "true" } });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function pack(into: string): PackedPackage[] {
  return FOLDERS.map((folder) => {
    const out = run("pnpm", ["pack", "--pack-destination", into], join(ROOT, "packages", folder));
    const tarball = out.trim().split("\n").at(-1) ?? "";
    const manifest = JSON.parse(
      execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
    );
    return { folder, tarball, manifest };
  });
}

/** The tarball `pnpm pack` wrote for `folder` (`@keyward/core` 0.1.0 → `keyward-core-0.1.0.tgz`). */
function tarballName(manifest: { name: string; version: string }): string {
  return `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`;
}

/** The tarballs `.ci/run` packed from this checkout's build, with the manifests inside them. */
function packedBefore(dir: string): PackedPackage[] {
  return FOLDERS.map((folder) => {
    const workspace = JSON.parse(readFileSync(join(ROOT, "packages", folder, "package.json"), "utf8"));
    const tarball = join(dir, tarballName(workspace));
    if (!existsSync(tarball)) throw new Error(`KEYWARD_TARBALLS=${dir} holds no ${tarballName(workspace)}`);
    const manifest = JSON.parse(
      execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
    );
    return { folder, tarball, manifest };
  });
}

function entries(p: PackedPackage): string[] {
  return execFileSync("tar", ["-tzf", p.tarball], { encoding: "utf8" }).trim().split("\n");
}

/** The files an `exports` map points at (its string leaves). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (typeof exports !== "object" || exports === null) return [];
  return Object.values(exports).flatMap(exportTargets);
}

/** What check-declarations.mjs found: the files it checked and every diagnostic, as tsc prints them. */
interface DeclarationCheck {
  checked: string[];
  diagnostics: string[];
}

/** Runs check-declarations.mjs with plain node in the consumer project (the installed typescript). */
async function checkDeclarations(app: string): Promise<DeclarationCheck> {
  const { stdout } = await promisify(execFile)(process.execPath, ["check-declarations.mjs"], {
    cwd: app,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as DeclarationCheck;
}

describe("the packed packages, installed together outside the workspace", () => {
  let dir: string;
  let packed: PackedPackage[];
  /** The strict type check, started once the install ends (one core, beside the other tests). */
  let declarations: Promise<DeclarationCheck> | undefined;

  beforeAll(() => {
    if (process.env.KEYWARD_BUILT !== "1") run("pnpm", ["build"], ROOT);
    dir = mkdtempSync(join(tmpdir(), "keyward-consumer-"));
    const tarballs = process.env.KEYWARD_TARBALLS;
    packed = tarballs ? packedBefore(tarballs) : pack(join(dir, "tarballs"));
    const app = join(dir, "app");
    run("mkdir", ["-p", app], dir);
    const extra = [
      { name: "reflect-metadata", importer: "packages/core" },
      { name: "typescript", importer: "." },
      { name: "@types/node", importer: "." },
    ];
    const lockfile = consumerLockfile(readFileSync(join(ROOT, "pnpm-lock.yaml"), "utf8"), packed, extra);
    writeFileSync(join(app, "pnpm-lock.yaml"), lockfile);
    const dependencies: Record<string, string> = Object.fromEntries(
      packed.map((p) => [p.manifest.name, `file:${p.tarball}`]),
    );
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const core = JSON.parse(readFileSync(join(ROOT, "packages/core/package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    dependencies["reflect-metadata"] = core.dependencies["reflect-metadata"] ?? "";
    for (const name of ["typescript", "@types/node"]) dependencies[name] = root.devDependencies[name] ?? "";
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }),
    );
    for (const f of [
      "start-and-login.mjs",
      "check-declarations.mjs",
      "consumer.ts",
      "tsconfig.json",
      "host-config.mjs",
      "shadow-worker-from-dist.mjs",
    ])
      copyFileSync(join(CONSUMER_FILES, f), join(app, f));
    // The bundle manifests the shadow worker's catalog reads (a host keeps its own bundle root).
    cpSync(join(ROOT, "prompt-bundles"), join(app, "prompt-bundles"), { recursive: true });
    run("pnpm", ["install", "--offline", "--frozen-lockfile", "--ignore-scripts"], app);
    declarations = checkDeclarations(app);
    declarations.catch(() => {}); // reported by its test; never an unhandled rejection meanwhile
  }, 600_000);
  afterAll(async () => {
    await declarations?.catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("pnpm pack wrote exact versions for internal dependencies, and no tests, sources or build state", () => {
    const byName = new Map(packed.map((p) => [p.manifest.name, p.manifest.version]));
    for (const p of packed) {
      for (const [name, range] of Object.entries(p.manifest.dependencies ?? {})) {
        if (byName.has(name))
          expect(`${p.manifest.name} → ${name}@${range}`).toBe(
            `${p.manifest.name} → ${name}@${byName.get(name)}`,
          );
      }
      const files = entries(p);
      expect(files).toContain("package/LICENSE");
      expect(files.filter((f) => /\.test\.|\/src\/|\.tsbuildinfo$|\/fixtures\//.test(f))).toEqual([]);
      expect(p.manifest).not.toHaveProperty("private");
      const targets = exportTargets(p.manifest.exports);
      expect(targets.length).toBeGreaterThan(0);
      expect(targets.filter((t) => !t.startsWith("./dist/") || /(?<!\.d)\.ts$/.test(t))).toEqual([]);
    }
    expect(byName.get("@keyward/sdk-browser")).toMatch(/^2\./);
    const sdk = entries(packed.find((p) => p.folder === "sdk-browser") as PackedPackage);
    expect(sdk).toEqual(
      expect.arrayContaining(["package/dist/browser/platform-mfa-sdk.js", "package/dist/index.d.ts"]),
    );
    const http = packed.find((p) => p.folder === "adapters-http") as PackedPackage;
    expect(Object.keys(http.manifest.dependencies ?? {})).not.toContain("esbuild");
  });

  it("plain node (no TypeScript loader) starts a platform and signs in over REST", () => {
    const out = run(process.execPath, ["start-and-login.mjs"], join(dir, "app"));
    const line = out.split("\n").find((l) => l.startsWith('{"status"'));
    expect(JSON.parse(line ?? "{}")).toEqual({
      status: 200,
      tokenType: "Bearer",
      accessTokenParts: 3,
      wrongStatus: 401,
      wrongCode: "BAD_CREDENTIALS",
      sdkStatus: 200,
      sdkDefinesPlatformMfa: true,
    });
  }, 60_000);

  // The worker's entry from dist had no automated test: under tsx the sources take the data: bootstrap.
  it("plain node starts the shadow worker from the built package and it answers a run", () => {
    const out = run(process.execPath, ["shadow-worker-from-dist.mjs"], join(dir, "app"));
    const line = out.split("\n").find((l) => l.startsWith('{"entry"'));
    expect(JSON.parse(line ?? "{}")).toEqual({
      entry: "governance/shadow/shadow-worker-thread.js",
      started: true,
      executor: "worker",
      workerRuns: 1,
      workerBatches: 1,
      inThreadRuns: 0,
      workerFailures: 0,
      bundleVersion: "2026.09.15-v20",
      presealedId: "pkg-dist-1",
      packageHashLength: 64,
      warnings: [],
    });
  }, 60_000);

  // One run proves both: the published command runs under plain node, and a config module outside
  // the repository imports definePlatformConfig from the installed @keyward/cli.
  it("the published `platform` command runs under plain node with a config module importing @keyward/cli", () => {
    const bin = join(dir, "app", "node_modules", ".bin", "platform");
    const out = run(bin, ["openapi", "--config", "host-config.mjs", "--json"], join(dir, "app"));
    expect(JSON.parse(out).paths).toHaveProperty("/api/hello-from-config");
  }, 60_000);

  // skipLibCheck off (the user's tsconfig has it on): that also checks our declarations, which
  // skipLibCheck would hide. Only our files are checked (check-declarations.mjs): the consumer file and
  // every declaration of a @keyward package; third-party declarations are not ours to fix (h3 2.0.8's
  // have two errors under lib DOM), and are read only where our declarations use them.
  it("a strict tsc (NodeNext, default lib with DOM) finds no error in the consumer file or our declarations", async () => {
    const { checked, diagnostics } = await (declarations ?? Promise.reject(new Error("not installed")));
    expect(diagnostics).toEqual([]);
    // Not vacuous: the consumer file and each package it imports were among the checked files.
    expect(checked).toContain("consumer.ts");
    for (const name of ["core", "adapters-http", "sdk-browser"])
      expect(checked.filter((f) => f.startsWith(`@keyward/${name}/dist/`)).length).toBeGreaterThan(0);
  }, 120_000);
});
