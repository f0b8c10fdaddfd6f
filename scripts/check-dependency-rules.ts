// The `pnpm check:deps` command: checks the dependency rule on this repository's packages.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatViolations, runDependencyRules } from "./dependency-rules.js";

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { violations, filesChecked } = runDependencyRules(rootDir);

if (violations.length > 0) {
  console.error(formatViolations(violations));
  console.error(`dependency rules: ${violations.length} violation(s) in ${filesChecked} files checked`);
  process.exitCode = 1;
} else {
  console.log(`dependency rules: OK (${filesChecked} files checked)`);
}
