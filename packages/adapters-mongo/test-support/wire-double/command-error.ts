// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
import type { Document } from "bson";

/** MongoDB server error codes the double answers with, by their `codeName`. */
export const ServerCode = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  DocumentValidationFailure: 121,
  DuplicateKey: 11000,
} as const;

/** A `codeName` of {@link ServerCode}. */
export type ServerCodeName = keyof typeof ServerCode;

/** A command that fails: answered as `{ ok: 0, code, codeName, errmsg, ...extra }`. */
export class CommandError extends Error {
  readonly code: number;
  constructor(
    readonly codeName: ServerCodeName,
    message: string,
    /** Extra fields of the answer (`keyPattern`, `keyValue` for a duplicate key). */
    readonly extra: Document = {},
  ) {
    super(message);
    this.code = ServerCode[codeName];
  }

  /** The error document a server sends. */
  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  /** The same error as an entry of a write command's `writeErrors`. */
  toWriteError(index: number): Document {
    return { index, code: this.code, errmsg: this.message, ...this.extra };
  }
}

/** The refusal of anything the double does not implement within a command it does implement. */
export function notImplemented(what: string): CommandError {
  return new CommandError("BadValue", `wire double: ${what} is not implemented`);
}
