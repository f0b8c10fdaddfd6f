// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Reads: find, getMore, killCursors, count, aggregate (the stages adapters use).
import type { Document } from "bson";
import { Aggregator } from "mingo";
import { cloneDocument } from "../bson-values.js";
import { CommandError, notImplemented } from "../command-error.js";
import { type CommandHandler, cursorId, targetCollection } from "../command-context.js";
import { projectDocument, refuseUnsupported, selectDocuments } from "../query-engine.js";

/** The aggregation stages the double runs (through mingo); any other is refused. */
export const AGGREGATION_STAGES = new Set([
  "$match",
  "$sort",
  "$limit",
  "$skip",
  "$project",
  "$group",
  "$count",
]);
const UNSUPPORTED_READ_OPTIONS = [
  "collation",
  "let",
  "tailable",
  "awaitData",
  "min",
  "max",
  "returnKey",
  "showRecordId",
];

const find: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "find");
  refuseUnsupported(cmd, UNSUPPORTED_READ_OPTIONS);
  const coll = ctx.store.find(ctx.db, name);
  const picked = coll ? selectDocuments(coll.all(), cmd) : [];
  const docs = picked.map((d) => projectDocument(d, cmd.projection as Document | undefined));
  return ctx.cursors.firstBatch(`${ctx.db}.${name}`, docs, cmd.batchSize, cmd.singleBatch === true);
};

const getMore: CommandHandler = (cmd, ctx) => ctx.cursors.getMore(cursorId(cmd.getMore), cmd.batchSize);

const killCursors: CommandHandler = (cmd, ctx) => {
  targetCollection(cmd, "killCursors");
  const ids = Array.isArray(cmd.cursors) ? cmd.cursors.map(cursorId) : [];
  const { killed, notFound } = ctx.cursors.kill(ids);
  const asLong = (xs: number[]) => xs.map((x) => BigInt(x));
  return {
    cursorsKilled: asLong(killed),
    cursorsNotFound: asLong(notFound),
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};

const count: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "count");
  refuseUnsupported(cmd, ["collation"]);
  const coll = ctx.store.find(ctx.db, name);
  const n = coll
    ? selectDocuments(coll.all(), { filter: cmd.query, skip: cmd.skip, limit: cmd.limit }).length
    : 0;
  return { n, ok: 1 };
};

const aggregate: CommandHandler = (cmd, ctx) => {
  if (typeof cmd.aggregate !== "string") throw notImplemented("a database-level aggregate");
  const name = targetCollection(cmd, "aggregate");
  refuseUnsupported(cmd, ["collation", "let", "explain"]);
  if (!Array.isArray(cmd.pipeline))
    throw new CommandError("FailedToParse", "'pipeline' option must be specified as an array");
  for (const stage of cmd.pipeline as Document[]) {
    const op = Object.keys(stage)[0] ?? "";
    if (!AGGREGATION_STAGES.has(op)) throw notImplemented(`pipeline stage ${op}`);
  }
  if (cmd.cursor === undefined || cmd.cursor === null || typeof cmd.cursor !== "object") {
    throw new CommandError("FailedToParse", "The 'cursor' option is required");
  }
  const coll = ctx.store.find(ctx.db, name);
  const input = (coll?.all() ?? []).map(cloneDocument);
  const output = new Aggregator(cmd.pipeline as Document[]).run(input) as Document[];
  return ctx.cursors.firstBatch(`${ctx.db}.${name}`, output, (cmd.cursor as Document).batchSize);
};

/** Read commands by name. */
export const readCommands: Record<string, CommandHandler> = { find, getMore, killCursors, count, aggregate };
