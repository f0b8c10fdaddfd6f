import type { KernelErrorCodes } from "./kernel-error-codes.js";

/** Extra, client-safe fields a PlatformError may carry into its JSON body (the untyped form). */
export type PlatformErrorDetails = Record<string, unknown>;

/** What one error code means: the HTTP status it answers with, what happened, and what to do about it. */
export interface ErrorCodeEntry {
  /** The HTTP status of the answer (4xx or 5xx; a 5xx other than 503 answers as INTERNAL_ERROR). */
  readonly status: number;
  /** One sentence: what the code says happened. */
  readonly meaning: string;
  /** One sentence: what the caller (or the operator) does about it. */
  readonly remedy: string;
}

/** One module's (or one host's) codes, UPPER_SNAKE, each with its entry. Declared `as const satisfies ErrorCodeTable`. */
export type ErrorCodeTable = Readonly<Record<string, ErrorCodeEntry>>;

/**
 * The details type of each code of table `T`: `D[code]` where `D` names one, no details otherwise.
 * A module (or a host) extends `PlatformErrorCodes` with `ErrorCodesOf<typeof ITS_TABLE, ItsDetails>`.
 */
export type ErrorCodesOf<
  T extends ErrorCodeTable,
  D extends { [K in keyof T]?: PlatformErrorDetails } = Record<never, never>,
> = {
  [K in keyof T]: K extends keyof D ? D[K] : undefined;
};

/**
 * Every error code the platform's types know, each mapped to the type of its `details`. Each module
 * adds its own table by declaration merging (`declare module "…/kernel/error-code-table.js"`); a host
 * adds its codes the same way through `declare module "@keyward/core/errors"`. Types only: which
 * codes a platform answers with at run time is its ErrorCatalog, the union of its plugins'
 * `errorCodes` (a host lists its table in a plugin of its own; docs/errors.md, "A host's own codes").
 */
export interface PlatformErrorCodes extends KernelErrorCodes {}

/** A code of some table: the union of every table's keys, so a misspelt code is a compile error. */
export type PlatformErrorCode = keyof PlatformErrorCodes & string;

/**
 * The details type of code `C`. For the whole union (an error whose code is not known statically)
 * it is the untyped `PlatformErrorDetails`; narrow with `isPlatformError(error, code)` to read typed details.
 */
export type ErrorDetailsOf<C extends PlatformErrorCode> = [PlatformErrorCode] extends [C]
  ? PlatformErrorDetails
  : PlatformErrorCodes[C];
