// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
import type { Document } from "bson";
import { CommandError } from "./command-error.js";
import type { CursorRegistry } from "./cursor-registry.js";
import type { DoubleStore } from "./double-store.js";

/** What a command handler works on. */
export interface CommandContext {
  store: DoubleStore;
  cursors: CursorRegistry;
  /** The double's clock (ms since the epoch). */
  now(): number;
  connectionId: number;
  /** The command's `$db`. */
  db: string;
}

/** Runs one command synchronously (so that it is atomic) and returns the answer document. */
export type CommandHandler = (cmd: Document, ctx: CommandContext) => Document;

/** The collection named by the command's first field (`{ find: "users" }`). */
export function targetCollection(cmd: Document, command: string): string {
  const name = cmd[command];
  if (typeof name !== "string" || name === "") {
    throw new CommandError("BadValue", `collection name for ${command} must be a non-empty string`);
  }
  return name;
}

/** A numeric cursor id off the wire (int64 promoted to number). */
export function cursorId(value: unknown): number {
  const id = typeof value === "bigint" ? Number(value) : Number(value);
  if (!Number.isFinite(id)) throw new CommandError("BadValue", "cursor id must be a number");
  return id;
}
