// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Collections and indexes: createIndexes, listIndexes, listCollections, create, drop, dropDatabase.
import type { Document } from "bson";
import { type CommandHandler, targetCollection } from "../command-context.js";
import { CommandError } from "../command-error.js";
import { describeIndex, findExistingIndex, ID_INDEX, type IndexSpec, parseIndexSpec } from "../index-spec.js";
import { matches } from "../query-engine.js";

const createIndexes: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "createIndexes");
  if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0) {
    throw new CommandError("BadValue", "Must specify at least one index to create");
  }
  const wanted = (cmd.indexes as unknown[]).map(parseIndexSpec);
  const existing = ctx.store.find(ctx.db, name)?.indexes ?? [ID_INDEX];
  const toAdd: IndexSpec[] = [];
  for (const spec of wanted) {
    if (!findExistingIndex([...existing, ...toAdd], spec)) toAdd.push(spec);
  }
  const { collection, created } = ctx.store.obtain(ctx.db, name);
  const before = collection.indexes.length;
  try {
    for (const spec of toAdd) collection.addIndex(spec);
  } catch (e) {
    if (created) ctx.store.drop(ctx.db, name);
    throw e;
  }
  const reply: Document = {
    numIndexesBefore: before,
    numIndexesAfter: collection.indexes.length,
    createdCollectionAutomatically: created,
    ok: 1,
  };
  if (toAdd.length === 0) reply.note = "all indexes already exist";
  return reply;
};

const listIndexes: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "listIndexes");
  const coll = ctx.store.find(ctx.db, name);
  if (!coll) throw new CommandError("NamespaceNotFound", `ns does not exist: ${ctx.db}.${name}`);
  const docs = coll.indexes.map(describeIndex);
  return ctx.cursors.firstBatch(coll.ns, docs, (cmd.cursor as Document | undefined)?.batchSize);
};

const listCollections: CommandHandler = (cmd, ctx) => {
  const nameOnly = cmd.nameOnly === true;
  const docs = ctx.store
    .list(ctx.db)
    .map((c) =>
      nameOnly
        ? { name: c.name, type: "collection" }
        : {
            name: c.name,
            type: "collection",
            options: c.validator ? { validator: c.validator } : {},
            info: { readOnly: false },
            idIndex: describeIndex(ID_INDEX),
          },
    )
    .filter((d) => matches(d, cmd.filter as Document | undefined));
  return ctx.cursors.firstBatch(
    `${ctx.db}.$cmd.listCollections`,
    docs,
    (cmd.cursor as Document | undefined)?.batchSize,
  );
};

const create: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "create");
  const options = Object.keys(cmd).filter((k) => k !== "create" && k !== "validator");
  if (options.length > 0)
    throw new CommandError("BadValue", `wire double: collection option '${options[0]}' is not implemented`);
  const validator = cmd.validator as unknown;
  if (
    validator !== undefined &&
    (validator === null || typeof validator !== "object" || Array.isArray(validator))
  )
    throw new CommandError("BadValue", "'validator' must be an object");
  if (ctx.store.find(ctx.db, name)) {
    throw new CommandError("NamespaceExists", `Collection ${ctx.db}.${name} already exists.`);
  }
  const { collection } = ctx.store.obtain(ctx.db, name);
  if (validator) collection.setValidator(validator as Document);
  return { ok: 1 };
};

const drop: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "drop");
  const coll = ctx.store.find(ctx.db, name);
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.indexes.length;
  ctx.store.drop(ctx.db, name);
  return { nIndexesWas, ns: coll.ns, ok: 1 };
};

const dropDatabase: CommandHandler = (_cmd, ctx) => {
  ctx.store.dropDatabase(ctx.db);
  return { dropped: ctx.db, ok: 1 };
};

/** Catalog commands by name. */
export const catalogCommands: Record<string, CommandHandler> = {
  createIndexes,
  listIndexes,
  listCollections,
  create,
  drop,
  dropDatabase,
};
