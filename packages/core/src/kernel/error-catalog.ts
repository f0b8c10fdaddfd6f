import type { InjectionToken } from "tsyringe";
import type { ErrorCodeEntry, ErrorCodeTable } from "./error-code-table.js";
import { PlatformError } from "./platform-error.js";

const CODE_SHAPE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/**
 * The error codes one platform knows, each with its status, meaning and remedy: the union of its
 * plugins' `errorCodes` tables (the kernel's always among them). Every place that turns a code into
 * an HTTP status reads the catalog of the platform that serves the request; a code it does not
 * hold answers 500, so an unknown code never leaks as a success. Immutable once built.
 */
export interface ErrorCatalog {
  /** The entry of `code`, if a table of this platform holds it. */
  entry(code: string): ErrorCodeEntry | undefined;
  /** The HTTP status of `code`: its entry's, or 500 for a code this platform does not know. */
  statusOf(code: string): number;
  /** The status an error answers with: its own explicit `status`, else its code's. */
  statusOfError(error: PlatformError): number;
  /** Every code the catalog holds, in the order the tables listed them. */
  codes(): readonly string[];
}

/** DI token of the platform's ErrorCatalog (registered by `createPlatform` from its plugins). */
export const ErrorCatalog: InjectionToken<ErrorCatalog> = Symbol.for("platform.ErrorCatalog");

/** One table and who contributed it (a plugin id), named when two tables disagree. */
export interface ErrorCodeSource {
  readonly source: string;
  readonly table: ErrorCodeTable;
}

/**
 * Builds a catalog from tables. The same code in two tables with the same entry is one code (several
 * plugins may list the table of codes they raise); with different entries it is refused
 * (CONFIGURATION_INVALID naming both sources), whatever the order of the tables, so no plugin can
 * redefine another's code by standing later in the list. Also refuses a code that is not UPPER_SNAKE,
 * a status outside 400-599, and an empty meaning or remedy.
 */
export function createErrorCatalog(sources: readonly ErrorCodeSource[]): ErrorCatalog {
  const entries = new Map<string, { entry: ErrorCodeEntry; source: string }>();
  for (const { source, table } of sources) {
    for (const [code, entry] of Object.entries(table)) {
      const problem = problemOf(code, entry) ?? clashOf(entries.get(code), entry, source);
      if (problem !== undefined)
        throw new PlatformError("CONFIGURATION_INVALID", `Error code ${code} (from ${source}): ${problem}`, {
          details: { code },
        });
      if (!entries.has(code))
        entries.set(code, {
          entry: Object.freeze({ status: entry.status, meaning: entry.meaning, remedy: entry.remedy }),
          source,
        });
    }
  }
  const codes = Object.freeze([...entries.keys()]);
  const statusOf = (code: string): number => entries.get(code)?.entry.status ?? 500;
  return Object.freeze({
    entry: (code: string) => entries.get(code)?.entry,
    statusOf,
    statusOfError: (error: PlatformError) => error.status ?? statusOf(error.code),
    codes: () => codes,
  });
}

function problemOf(code: string, entry: ErrorCodeEntry): string | undefined {
  if (!CODE_SHAPE.test(code)) return "a code is UPPER_SNAKE";
  if (!Number.isInteger(entry.status) || entry.status < 400 || entry.status > 599)
    return "the status must be an integer from 400 to 599";
  if (typeof entry.meaning !== "string" || entry.meaning.trim() === "") return "the meaning is empty";
  if (typeof entry.remedy !== "string" || entry.remedy.trim() === "") return "the remedy is empty";
  return undefined;
}

function clashOf(
  known: { entry: ErrorCodeEntry; source: string } | undefined,
  entry: ErrorCodeEntry,
  source: string,
): string | undefined {
  if (known === undefined) return undefined;
  const same =
    known.entry.status === entry.status &&
    known.entry.meaning === entry.meaning &&
    known.entry.remedy === entry.remedy;
  return same
    ? undefined
    : `${known.source} already defines it with status ${known.entry.status} and another meaning or remedy` +
        (known.source === source ? "" : `; ${source} cannot redefine it`);
}
