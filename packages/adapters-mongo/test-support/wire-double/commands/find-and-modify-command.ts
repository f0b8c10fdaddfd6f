// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// findAndModify: find one document (sort), then update or remove it, in one atomic step. This is
// what compare-and-set (a version or state in the query) and single-use consumption rest on.
import type { Document } from "bson";
import { valueKey } from "../bson-values.js";
import { type CommandHandler, targetCollection } from "../command-context.js";
import { CommandError } from "../command-error.js";
import { projectDocument, refuseUnsupported, selectDocuments } from "../query-engine.js";
import { applyUpdate, parseUpdate, upsertDocument } from "../update-apply.js";

const findAndModify: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, "findAndModify");
  refuseUnsupported(cmd, ["collation", "let"]);
  const remove = cmd.remove === true;
  if (remove && cmd.update !== undefined) {
    throw new CommandError("FailedToParse", "Cannot specify both an update and remove=true");
  }
  if (!remove && cmd.update === undefined) {
    throw new CommandError("FailedToParse", "Either an update or remove=true must be specified");
  }
  if (remove && (cmd.upsert === true || cmd.new === true)) {
    throw new CommandError("FailedToParse", "Cannot specify both upsert=true/new=true and remove=true");
  }
  const filter = (cmd.query ?? {}) as Document;
  const fields = cmd.fields as Document | undefined;
  const spec = remove ? undefined : parseUpdate(cmd.update);
  const existing = ctx.store.find(ctx.db, name);
  if (!existing && cmd.upsert !== true) {
    return { lastErrorObject: remove ? { n: 0 } : { n: 0, updatedExisting: false }, value: null, ok: 1 };
  }
  const collection = existing ?? ctx.store.obtain(ctx.db, name).collection;
  const [found] = selectDocuments(collection.all(), { filter, sort: cmd.sort, limit: 1 });

  if (!spec) {
    if (!found) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
    collection.remove(valueKey(found._id));
    return { lastErrorObject: { n: 1 }, value: projectDocument(found, fields), ok: 1 };
  }

  const arrayFilters = cmd.arrayFilters as Document[] | undefined;
  if (found) {
    const next = applyUpdate(found, spec, arrayFilters);
    collection.replace(valueKey(found._id), next);
    const value = projectDocument(cmd.new === true ? next : found, fields);
    return { lastErrorObject: { n: 1, updatedExisting: true }, value, ok: 1 };
  }
  if (cmd.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  const doc = upsertDocument(filter, spec, arrayFilters);
  collection.insert(doc);
  const value = cmd.new === true ? projectDocument(doc, fields) : null;
  return { lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id }, value, ok: 1 };
};

/** findAndModify under both spellings. */
export const findAndModifyCommands: Record<string, CommandHandler> = {
  findAndModify,
  findandmodify: (cmd, ctx) => findAndModify({ ...cmd, findAndModify: cmd.findandmodify }, ctx),
};
