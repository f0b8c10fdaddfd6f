// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Updates: a replacement document or update operators (no aggregation pipeline), and upserts.
import { type Document, ObjectId } from "bson";
import { update as mingoUpdate } from "mingo";
import { cloneDocument, valueKey } from "./bson-values.js";
import { CommandError, notImplemented } from "./command-error.js";

/** The update operators the double implements (through mingo, `$setOnInsert` itself). */
const OPERATORS = new Set([
  "$set",
  "$unset",
  "$inc",
  "$setOnInsert",
  "$push",
  "$pull",
  "$addToSet",
  "$min",
  "$max",
]);

/** A parsed update: a replacement document, or operators. */
export type UpdateSpec = { kind: "replacement"; doc: Document } | { kind: "operators"; ops: Document };

/** Reads an update document; refuses pipelines and operators the double does not implement. */
export function parseUpdate(u: unknown): UpdateSpec {
  if (Array.isArray(u)) throw notImplemented("a pipeline-style update");
  if (u === null || typeof u !== "object")
    throw new CommandError("FailedToParse", "Update argument must be an object");
  const keys = Object.keys(u);
  const dollar = keys.filter((k) => k.startsWith("$"));
  if (dollar.length === 0) return { kind: "replacement", doc: u as Document };
  if (dollar.length !== keys.length) {
    const plain = keys.find((k) => !k.startsWith("$"));
    throw new CommandError("FailedToParse", `Unknown modifier: ${plain}. Expected a valid update modifier`);
  }
  for (const op of dollar) {
    if (!OPERATORS.has(op))
      throw new CommandError("FailedToParse", `wire double: update operator ${op} is not implemented`);
  }
  return { kind: "operators", ops: u as Document };
}

/** `doc` (untouched) updated by `spec` into a new document; `_id` is immutable. */
export function applyUpdate(doc: Document, spec: UpdateSpec, arrayFilters?: Document[]): Document {
  if (spec.kind === "replacement") {
    const { _id, ...rest } = cloneDocument(spec.doc);
    if (_id !== undefined && valueKey(_id) !== valueKey(doc._id)) throw immutableId();
    return { _id: doc._id, ...rest };
  }
  const next = cloneDocument(doc);
  const { $setOnInsert: _ignored, ...ops } = spec.ops;
  const { ops: rest } = takeSetId(ops, doc._id);
  if (Object.keys(rest).length > 0) runOperators(next, rest, arrayFilters);
  if (valueKey(next._id) !== valueKey(doc._id)) throw immutableId();
  return next;
}

/** The document an upsert inserts: the filter's equalities, then the update (with `$setOnInsert`). */
export function upsertDocument(filter: Document, spec: UpdateSpec, arrayFilters?: Document[]): Document {
  if (spec.kind === "replacement") {
    const { _id, ...rest } = cloneDocument(spec.doc);
    const seedId = equalities(filter)._id;
    return { _id: _id ?? seedId ?? new ObjectId(), ...rest };
  }
  const { _id: seedId, ...eq } = equalities(filter);
  const seed: Document = {};
  if (Object.keys(eq).length > 0) runOperators(seed, { $set: eq });
  const taken = takeSetId(spec.ops, seedId);
  const { $setOnInsert, ...ops } = taken.ops;
  if ($setOnInsert) checkNoOverlap(ops, $setOnInsert as Document);
  if (Object.keys(ops).length > 0) runOperators(seed, ops, arrayFilters);
  if ($setOnInsert) runOperators(seed, { $set: $setOnInsert });
  const { _id, ...rest } = seed;
  return { _id: _id ?? taken.id ?? seedId ?? new ObjectId(), ...rest };
}

/**
 * Takes `_id` out of `$set`/`$setOnInsert` (mingo refuses any update of `_id`): MongoDB accepts it when
 * the value stays the same, or names the `_id` of an upserted document; another value is 66.
 */
function takeSetId(ops: Document, current: unknown): { ops: Document; id?: unknown } {
  let id: unknown;
  const out: Document = { ...ops };
  for (const op of ["$set", "$setOnInsert"]) {
    const fields = ops[op] as Document | undefined;
    if (!fields || !("_id" in fields)) continue;
    const { _id, ...others } = fields;
    if (current !== undefined && valueKey(_id) !== valueKey(current)) throw immutableId();
    id = _id;
    out[op] = others;
  }
  return { ops: out, id };
}

function runOperators(doc: Document, ops: Document, arrayFilters?: Document[]): void {
  try {
    mingoUpdate(doc, ops, arrayFilters);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/conflict/i.test(message)) throw new CommandError("ConflictingUpdateOperators", message);
    if (/immutable field/i.test(message)) throw new CommandError("ImmutableField", message);
    throw new CommandError("BadValue", `wire double (mingo): ${message}`);
  }
}

/** Equality conditions of a filter (`{a: 1}`, `{a: {$eq: 1}}`, inside `$and`), as an upsert seeds them. */
function equalities(filter: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === "$and" && Array.isArray(value)) {
      for (const sub of value) Object.assign(out, equalities(sub as Document));
    } else if (!key.startsWith("$")) {
      if (isOperatorObject(value)) {
        if ("$eq" in value) out[key] = value.$eq;
      } else {
        out[key] = value;
      }
    }
  }
  return out;
}

function isOperatorObject(value: unknown): value is Document {
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype)
    return false;
  const first = Object.keys(value)[0];
  return first?.startsWith("$") ?? false;
}

function checkNoOverlap(ops: Document, onInsert: Document): void {
  const paths = Object.values(ops).flatMap((fields) => Object.keys(fields as Document));
  for (const p of Object.keys(onInsert)) {
    const clash = paths.find((q) => q === p || q.startsWith(`${p}.`) || p.startsWith(`${q}.`));
    if (clash !== undefined) {
      throw new CommandError(
        "ConflictingUpdateOperators",
        `Updating the path '${p}' would create a conflict at '${clash}'`,
      );
    }
  }
}

function immutableId(): CommandError {
  return new CommandError(
    "ImmutableField",
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );
}
