import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ERROR_STATUS } from "@platform/core/errors";
import { describe, expect, it } from "vitest";

const table = readFileSync(fileURLToPath(new URL("../../docs/errors.md", import.meta.url)), "utf8");
const documented = Object.fromEntries(
  [...table.matchAll(/^\| `([A-Z_0-9]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]),
);

describe("docs/errors.md", () => {
  it("documents every code with its status, and nothing else", () => {
    expect(documented).toEqual(ERROR_STATUS);
  });
});
