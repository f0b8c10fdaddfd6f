import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ERROR_CODE_TABLES } from "../../packages/core/src/error-code-tables.js";
import type { ErrorCodeEntry } from "../../packages/core/src/kernel/error-code-table.js";

const page = readFileSync(fileURLToPath(new URL("../../docs/errors.md", import.meta.url)), "utf8");
const byModule = page.split("\n## The codes, by module\n")[1] ?? "";

/** `### module` sections, each with its `| code | status | meaning | remedy |` rows, in page order. */
function documentedTables(): Record<string, Record<string, ErrorCodeEntry>> {
  const tables: Record<string, Record<string, ErrorCodeEntry>> = {};
  for (const section of byModule.split(/^### /m).slice(1)) {
    const module = section.slice(0, section.indexOf("\n")).trim();
    const rows = [...section.matchAll(/^\| `([A-Z_0-9]+)` \| (\d{3}) \| (.+?) \| (.+?) \|$/gm)];
    tables[module] = Object.fromEntries(
      rows.map(([, code, status, meaning, remedy]) => [
        code!,
        { status: Number(status), meaning: meaning!, remedy: remedy! },
      ]),
    );
  }
  return tables;
}

describe("docs/errors.md", () => {
  it("documents every module's table, in module order, each code with its status, meaning and remedy", () => {
    const documented = documentedTables();
    expect(Object.keys(documented)).toEqual(Object.keys(ERROR_CODE_TABLES));
    expect(documented).toEqual(ERROR_CODE_TABLES);
  });

  it("lists nothing else as a code row", () => {
    const rows = byModule.split("\n").filter((line) => line.startsWith("| `"));
    const codes = Object.values(ERROR_CODE_TABLES).flatMap((table) => Object.keys(table));
    expect(rows).toHaveLength(codes.length);
  });
});
