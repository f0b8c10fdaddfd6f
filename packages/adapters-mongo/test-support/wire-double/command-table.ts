// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Every command the double implements, and the dispatch that turns a request into an answer.
import type { Document } from "bson";
import type { CommandContext, CommandHandler } from "./command-context.js";
import { CommandError } from "./command-error.js";
import { catalogCommands } from "./commands/catalog-commands.js";
import { findAndModifyCommands } from "./commands/find-and-modify-command.js";
import { handshakeCommands } from "./commands/handshake-commands.js";
import { readCommands } from "./commands/read-commands.js";
import { writeCommands } from "./commands/write-commands.js";

/** Command name → handler. A name not here answers 59 CommandNotFound. */
export const COMMANDS: Readonly<Record<string, CommandHandler>> = {
  ...handshakeCommands,
  ...readCommands,
  ...writeCommands,
  ...findAndModifyCommands,
  ...catalogCommands,
};

/** Fields any command may carry that change nothing in a single in-process server. */
const GENERIC_FIELDS = [
  "$db",
  "lsid",
  "$clusterTime",
  "$readPreference",
  "writeConcern",
  "readConcern",
  "apiVersion",
  "apiStrict",
  "apiDeprecationErrors",
  "comment",
  "maxTimeMS",
  "bypassDocumentValidation",
  "hint",
  "allowDiskUse",
  "noCursorTimeout",
  "allowPartialResults",
];
/** Fields that start or continue a transaction, which a standalone server refuses. */
const TRANSACTION_FIELDS = ["txnNumber", "startTransaction", "autocommit"];

/** Answers one command document: the handler's reply, or the error document a server sends. */
export function runCommand(command: Document, ctx: Omit<CommandContext, "db">): Document {
  const name = Object.keys(command)[0];
  const db = typeof command.$db === "string" ? command.$db : "admin";
  try {
    const handler = name === undefined ? undefined : COMMANDS[name];
    if (!handler || !Object.hasOwn(COMMANDS, name as string)) {
      throw new CommandError("CommandNotFound", `wire double: command ${name} is not implemented`);
    }
    if (TRANSACTION_FIELDS.some((f) => command[f] !== undefined)) {
      throw new CommandError(
        "IllegalOperation",
        "Transaction numbers are only allowed on a replica set member or mongos (the wire double is a standalone)",
      );
    }
    const cmd: Document = { ...command };
    for (const f of GENERIC_FIELDS) delete cmd[f];
    return handler(cmd, { ...ctx, db });
  } catch (e) {
    if (e instanceof CommandError) return e.toReply();
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof Error && e.constructor.name === "MingoError") {
      return new CommandError("BadValue", `wire double (mingo): ${message}`).toReply();
    }
    return new CommandError("InternalError", `wire double: internal error: ${message}`).toReply();
  }
}
