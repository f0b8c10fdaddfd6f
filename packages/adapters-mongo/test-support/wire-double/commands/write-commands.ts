// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Writes: insert, update (operators or replacement, upsert, multi), delete. Each statement is
// atomic; an ordered batch stops at the first write error, an unordered one goes on.
import { type Document, ObjectId } from "bson";
import { cloneDocument, sameDocument, valueKey } from "../bson-values.js";
import { type CommandContext, type CommandHandler, targetCollection } from "../command-context.js";
import { CommandError } from "../command-error.js";
import { matches, refuseUnsupported, selectDocuments } from "../query-engine.js";
import { applyUpdate, parseUpdate, upsertDocument } from "../update-apply.js";

/** Runs each statement; collects write errors as MongoDB reports them. */
function runStatements<T>(
  statements: T[],
  ordered: boolean,
  run: (statement: T, index: number) => void,
): Document[] {
  const writeErrors: Document[] = [];
  for (const [index, statement] of statements.entries()) {
    try {
      run(statement, index);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      writeErrors.push(e.toWriteError(index));
      if (ordered) break;
    }
  }
  return writeErrors;
}

function withWriteErrors(reply: Document, writeErrors: Document[]): Document {
  return writeErrors.length > 0 ? { ...reply, writeErrors, ok: 1 } : { ...reply, ok: 1 };
}

function statementsOf(cmd: Document, field: string): Document[] {
  const list = cmd[field];
  if (!Array.isArray(list)) throw new CommandError("FailedToParse", `'${field}' must be an array`);
  return list as Document[];
}

const insert: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "insert");
  const docs = statementsOf(cmd, "documents");
  const { collection } = ctx.store.obtain(ctx.db, name);
  let n = 0;
  const writeErrors = runStatements(docs, cmd.ordered !== false, (raw) => {
    const { _id, ...rest } = cloneDocument(raw);
    if (Array.isArray(_id)) throw new CommandError("BadValue", "can't use an array for _id");
    collection.insert({ _id: _id ?? new ObjectId(), ...rest });
    n++;
  });
  return withWriteErrors({ n }, writeErrors);
};

/** One update statement; adds to the counters. */
function updateOne(ctx: CommandContext, name: string, stmt: Document, index: number, out: Document): void {
  refuseUnsupported(stmt, ["collation", "sort"]);
  const filter = (stmt.q ?? {}) as Document;
  const spec = parseUpdate(stmt.u);
  const arrayFilters = stmt.arrayFilters as Document[] | undefined;
  // Like MongoDB, an update creates its collection only when it upserts.
  const existing = ctx.store.find(ctx.db, name);
  if (!existing && !stmt.upsert) return;
  const collection = existing ?? ctx.store.obtain(ctx.db, name).collection;
  const targets = selectDocuments(collection.all(), { filter, limit: stmt.multi ? 0 : 1 });
  if (stmt.multi && spec.kind === "replacement") {
    throw new CommandError("FailedToParse", "multi update is not supported for replacement-style update");
  }
  for (const doc of targets) {
    const next = applyUpdate(doc, spec, arrayFilters);
    out.n++;
    if (sameDocument(doc, next)) continue;
    collection.replace(valueKey(doc._id), next);
    out.nModified++;
  }
  if (targets.length === 0 && stmt.upsert) {
    const doc = upsertDocument(filter, spec, arrayFilters);
    collection.insert(doc);
    out.n++;
    out.upserted.push({ index, _id: doc._id });
  }
}

const update: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "update");
  const out = { n: 0, nModified: 0, upserted: [] as Document[] };
  const writeErrors = runStatements(statementsOf(cmd, "updates"), cmd.ordered !== false, (stmt, index) =>
    updateOne(ctx, name, stmt, index, out),
  );
  const reply: Document = { n: out.n, nModified: out.nModified };
  if (out.upserted.length > 0) reply.upserted = out.upserted;
  return withWriteErrors(reply, writeErrors);
};

const remove: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "delete");
  const collection = ctx.store.find(ctx.db, name);
  let n = 0;
  const writeErrors = runStatements(statementsOf(cmd, "deletes"), cmd.ordered !== false, (stmt) => {
    refuseUnsupported(stmt, ["collation"]);
    if (stmt.limit !== 0 && stmt.limit !== 1)
      throw new CommandError("FailedToParse", "delete limit must be 0 or 1");
    if (!collection) return;
    const filter = (stmt.q ?? {}) as Document;
    const targets =
      stmt.limit === 1 ? selectDocuments(collection.all(), { filter, limit: 1 }) : collection.all();
    for (const doc of targets) {
      if (stmt.limit === 0 && !matches(doc, filter)) continue;
      collection.remove(valueKey(doc._id));
      n++;
    }
  });
  return withWriteErrors({ n }, writeErrors);
};

/** Write commands by name. */
export const writeCommands: Record<string, CommandHandler> = { insert, update, delete: remove };
