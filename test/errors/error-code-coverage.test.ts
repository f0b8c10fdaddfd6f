import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  authzPlugin,
  createPlatform,
  identityPlugin,
  mfaPlugin,
  type PlatformPlugin,
  zeroTrustPlugin,
} from "@keyward/core";
import { createDecisionsPlugin } from "@keyward/core/decisions";
import { promptGovernancePlugin } from "@keyward/core/governance";
import { ErrorCatalog } from "@keyward/core/errors";
import { createPromptsPlugin } from "@keyward/core/prompts";
import { describe, expect, it } from "vitest";
import { ERROR_CODE_TABLES, ERROR_STATUS } from "../../packages/core/src/error-code-tables.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

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

// Importing a module registers nothing: the set-up file loads every table, yet a platform knows only
// the codes its plugins contribute, each plugin bringing the codes of its module.
describe("the catalog a platform gets", () => {
  const codesOf = (...modules: (keyof typeof ERROR_CODE_TABLES)[]) =>
    modules.flatMap((m) => Object.keys(ERROR_CODE_TABLES[m])).sort();
  const known = (...plugins: PlatformPlugin[]) =>
    [...createPlatform({ plugins, env: {} }).resolve(ErrorCatalog).codes()].sort();

  it("holds the codes of the modules its plugins bring, whatever this process imported", () => {
    expect(known()).toEqual(codesOf("kernel"));
    expect(known(identityPlugin)).toEqual(codesOf("kernel", "web", "identity"));
    expect(known(identityPlugin, mfaPlugin)).toEqual(codesOf("kernel", "web", "identity", "mfa"));
    expect(known(zeroTrustPlugin)).toEqual(codesOf("kernel", "mfa", "authz"));
    expect(known(identityPlugin, mfaPlugin, authzPlugin)).toEqual(
      codesOf("kernel", "web", "identity", "mfa", "authz"),
    );
    expect(known(createPromptsPlugin())).toEqual(codesOf("kernel", "prompts"));
    expect(known(identityPlugin, mfaPlugin, authzPlugin, createDecisionsPlugin())).toEqual(
      codesOf("kernel", "web", "identity", "mfa", "authz", "prompts", "decisions"),
    );
    expect(
      known(identityPlugin, mfaPlugin, authzPlugin, createDecisionsPlugin(), promptGovernancePlugin),
    ).toEqual(Object.keys(ERROR_STATUS).sort());
  });
});
