import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ERROR_CODE_TABLES, ERROR_STATUS } from "@platform/core/errors";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every code written literally where an error is built: `new PlatformError("X"`, `mfaError("X"`, `passkeyError("X"`. */
function thrownCodes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const pkg of ["core", "adapters-http", "cli"]) {
    for (const file of sourceFiles(join(root, "packages", pkg, "src"))) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\b(?:new PlatformError|mfaError|passkeyError)\(\s*"([^"]+)"/g))
        found.set(m[1]!, file.slice(root.length));
    }
  }
  return found;
}

describe("error codes in the source", () => {
  it("every code an error is built with is in a table (casts cannot hide one)", () => {
    const found = thrownCodes();
    expect(found.size).toBeGreaterThan(30);
    expect(found.has("TIMEOUT")).toBe(true);
    const missing = [...found].filter(([code]) => !(code in ERROR_STATUS));
    expect(missing).toEqual([]);
  });
});

// Each entry point must leave the catalog knowing the codes of every module it loads: the status of
// an error is looked up where it is answered, which is not where it was thrown. Run in fresh
// processes so the test set-up (which loads every table) cannot hide a gap.
describe("the catalog a fresh process gets", () => {
  const catalogAfter = async (entry: string): Promise<string[]> => {
    const catalog = join(root, "packages/core/src/kernel/error-catalog.ts");
    const script = `
      import "reflect-metadata";
      await import(${JSON.stringify(entry)});
      const { errorCodeEntry } = await import(${JSON.stringify(catalog)});
      const codes = ${JSON.stringify(Object.keys(ERROR_STATUS))};
      console.log(JSON.stringify(codes.filter((c) => errorCodeEntry(c) !== undefined)));`;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
    });
    return (JSON.parse(stdout.trim().split("\n").at(-1)!) as string[]).sort();
  };
  const codesOf = (...modules: (keyof typeof ERROR_CODE_TABLES)[]) =>
    modules.flatMap((m) => Object.keys(ERROR_CODE_TABLES[m])).sort();

  it("holds every code of the modules an entry point loads", { timeout: 90_000 }, async () => {
    const [rootCodes, web, identity, mfa] = await Promise.all(
      ["@platform/core", "@platform/core/web", "@platform/core/identity", "@platform/core/mfa"].map(
        catalogAfter,
      ),
    );
    expect(rootCodes).toEqual(Object.keys(ERROR_STATUS).sort());
    expect(web).toEqual(codesOf("kernel", "web"));
    expect(identity).toEqual(expect.arrayContaining(codesOf("kernel", "web", "identity")));
    expect(mfa).toEqual(expect.arrayContaining(codesOf("kernel", "web", "identity", "mfa")));
  });
});
