import type { ErrorCodeEntry, ErrorCodeTable } from "./error-code-table.js";
import { PlatformError } from "./platform-error.js";

const CODE_SHAPE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

// Every code registered in this process. A code is a public contract that means the same on every
// platform instance, so the catalog is process-wide (like the code strings themselves); it only grows,
// and a code is never redefined: registering the same entry again is a no-op, a different one is refused.
const catalog = new Map<string, ErrorCodeEntry>();

/**
 * Adds a table of error codes to the catalog `statusForCode` and `errorResponse` read. Each module of
 * the core registers its own table when the table is loaded; a host registers its codes once, before
 * it serves requests. Refuses (CONFIGURATION_INVALID) a code that is not UPPER_SNAKE, a status outside
 * 400-599, an empty meaning or remedy, and a code already registered with another entry.
 */
export function registerErrorCodes(table: ErrorCodeTable): void {
  const accepted: [string, ErrorCodeEntry][] = [];
  for (const [code, entry] of Object.entries(table)) {
    const problem = problemOf(code, entry);
    if (problem !== undefined)
      throw new PlatformError("CONFIGURATION_INVALID", `Error code ${code}: ${problem}`, {
        details: { code },
      });
    accepted.push([
      code,
      Object.freeze({ status: entry.status, meaning: entry.meaning, remedy: entry.remedy }),
    ]);
  }
  for (const [code, entry] of accepted) if (!catalog.has(code)) catalog.set(code, entry);
}

/** The registered entry of `code`, if any. */
export function errorCodeEntry(code: string): ErrorCodeEntry | undefined {
  return catalog.get(code);
}

function problemOf(code: string, entry: ErrorCodeEntry): string | undefined {
  if (!CODE_SHAPE.test(code)) return "a code is UPPER_SNAKE";
  if (!Number.isInteger(entry.status) || entry.status < 400 || entry.status > 599)
    return "the status must be an integer from 400 to 599";
  if (typeof entry.meaning !== "string" || entry.meaning.trim() === "") return "the meaning is empty";
  if (typeof entry.remedy !== "string" || entry.remedy.trim() === "") return "the remedy is empty";
  const known = catalog.get(code);
  if (
    known !== undefined &&
    (known.status !== entry.status || known.meaning !== entry.meaning || known.remedy !== entry.remedy)
  )
    return `already registered with status ${known.status} and another meaning or remedy`;
  return undefined;
}
