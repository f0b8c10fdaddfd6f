// `pnpm generate:username-tables`: rewrites the Unicode tables of the username rule from the pinned
// UCD packages (see scripts/username-tables.ts). Run it after bumping those packages; a clean tree stays clean.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TABLES_FILE, usernameTablesSource } from "./username-tables.js";

const path = resolve(dirname(fileURLToPath(import.meta.url)), "..", TABLES_FILE);
const text = await usernameTablesSource();
let old: string | undefined;
try {
  old = readFileSync(path, "utf8");
} catch {}
if (old === text) {
  console.log(`${TABLES_FILE} is current`);
} else {
  writeFileSync(path, text);
  console.log(`wrote ${TABLES_FILE}`);
}
