// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// The handshake and the administrative no-ops a driver sends: hello/isMaster, ping, buildInfo, endSessions.
import type { Document } from "bson";
import type { CommandContext, CommandHandler } from "../command-context.js";
import { MAX_MESSAGE_BYTES } from "../wire-messages.js";

/** The MongoDB version the double imitates (wire version 25 = 8.0). */
export const IMITATED_VERSION = "8.0.0";
const MAX_WIRE_VERSION = 25;

/**
 * A standalone server's hello: no `topologyVersion` (so the driver polls instead of streaming
 * heartbeats), no `compression`, no `setName` (so no retryable writes or transactions are attempted).
 * `wireDouble: true` says what answered.
 */
const hello: CommandHandler = (_cmd: Document, ctx: CommandContext) => ({
  helloOk: true,
  ismaster: true,
  isWritablePrimary: true,
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: MAX_MESSAGE_BYTES,
  maxWriteBatchSize: 100_000,
  localTime: new Date(ctx.now()),
  logicalSessionTimeoutMinutes: 30,
  connectionId: ctx.connectionId,
  minWireVersion: 0,
  maxWireVersion: MAX_WIRE_VERSION,
  readOnly: false,
  wireDouble: true,
  ok: 1,
});

const buildInfo: CommandHandler = () => ({
  version: IMITATED_VERSION,
  gitVersion: "wire-double",
  versionArray: [8, 0, 0, 0],
  bits: 64,
  maxBsonObjectSize: 16 * 1024 * 1024,
  wireDouble: true,
  ok: 1,
});

/** Handshake and administrative commands by name. */
export const handshakeCommands: Record<string, CommandHandler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: () => ({ ok: 1 }),
  buildInfo,
  buildinfo: buildInfo,
  endSessions: () => ({ ok: 1 }),
};
