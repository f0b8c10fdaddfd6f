import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TABLES_FILE, usernameTablesSource } from "./username-tables.js";

describe("the username rule's Unicode tables", () => {
  it("are what `pnpm generate:username-tables` makes from the pinned UCD packages", async () => {
    const committed = readFileSync(
      resolve(dirname(fileURLToPath(import.meta.url)), "..", TABLES_FILE),
      "utf8",
    );
    expect(committed).toBe(await usernameTablesSource());
  });
});
