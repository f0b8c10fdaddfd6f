import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordedGroup } from "./golden-types.js";

/** The folder of the answers files, one `<group>.json` per endpoint group. */
export const ANSWERS_DIRECTORY = fileURLToPath(new URL("./answers/", import.meta.url));

/** The path of a group's answers file. */
export function answersFile(group: string): string {
  return join(ANSWERS_DIRECTORY, `${group}.json`);
}

/** The recorded answers of a group, or undefined when it was never recorded. */
export function readAnswers(group: string): RecordedGroup | undefined {
  const file = answersFile(group);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as RecordedGroup) : undefined;
}

/** Writes a group's answers: two-space JSON with a final newline, so diffs read line by line. */
export function writeAnswers(recorded: RecordedGroup): void {
  writeFileSync(answersFile(recorded.group), `${JSON.stringify(recorded, null, 2)}\n`);
}
