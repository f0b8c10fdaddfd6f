// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Index specifications: what createIndexes accepts, and when a request conflicts with an index.
import type { Document } from "bson";
import { printDocument, valueKey } from "./bson-values.js";
import { CommandError, notImplemented } from "./command-error.js";

/** An index as the double keeps it and `listIndexes` shows it. */
export interface IndexSpec {
  name: string;
  /** Field path → 1 or -1, in order. */
  key: Document;
  unique: boolean;
  sparse: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
}

/** The `_id_` index every collection has. */
export const ID_INDEX: IndexSpec = { name: "_id_", key: { _id: 1 }, unique: true, sparse: false };

const ACCEPTED_OPTIONS = new Set([
  "key",
  "name",
  "v",
  "unique",
  "sparse",
  "partialFilterExpression",
  "expireAfterSeconds",
  "background",
  "ns",
]);

/** Reads one entry of createIndexes' `indexes`, refusing what the double does not implement. */
export function parseIndexSpec(raw: unknown): IndexSpec {
  if (raw === null || typeof raw !== "object")
    throw new CommandError("FailedToParse", "index spec must be an object");
  const doc = raw as Document;
  for (const option of Object.keys(doc)) {
    if (!ACCEPTED_OPTIONS.has(option)) throw notImplemented(`index option '${option}'`);
  }
  const key = doc.key as Document | undefined;
  if (!key || typeof key !== "object" || Object.keys(key).length === 0) {
    throw new CommandError("CannotCreateIndex", "Index keys cannot be empty.");
  }
  for (const [field, dir] of Object.entries(key)) {
    if (dir !== 1 && dir !== -1) throw notImplemented(`index type ${JSON.stringify(dir)} on '${field}'`);
  }
  if (typeof doc.name !== "string" || doc.name === "") {
    throw new CommandError(
      "FailedToParse",
      "The 'name' field is a required property of an index specification",
    );
  }
  const spec: IndexSpec = { name: doc.name, key: { ...key }, unique: !!doc.unique, sparse: !!doc.sparse };
  if (doc.partialFilterExpression !== undefined) {
    if (typeof doc.partialFilterExpression !== "object" || doc.partialFilterExpression === null) {
      throw new CommandError("CannotCreateIndex", "partialFilterExpression must be an object");
    }
    spec.partialFilterExpression = doc.partialFilterExpression as Document;
  }
  if (doc.expireAfterSeconds !== undefined) {
    const seconds = doc.expireAfterSeconds;
    if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 0) {
      throw new CommandError(
        "CannotCreateIndex",
        "TTL index 'expireAfterSeconds' option must be a non-negative integer",
      );
    }
    if (Object.keys(key).length !== 1) {
      throw new CommandError(
        "CannotCreateIndex",
        "TTL indexes are single-field indexes, compound indexes do not support TTL",
      );
    }
    spec.expireAfterSeconds = seconds;
  }
  return spec;
}

/** The document `listIndexes` returns for an index. */
export function describeIndex(spec: IndexSpec): Document {
  const out: Document = { v: 2, key: spec.key, name: spec.name };
  if (spec.unique && spec.name !== ID_INDEX.name) out.unique = true;
  if (spec.sparse) out.sparse = true;
  if (spec.partialFilterExpression) out.partialFilterExpression = spec.partialFilterExpression;
  if (spec.expireAfterSeconds !== undefined) out.expireAfterSeconds = spec.expireAfterSeconds;
  return out;
}

/**
 * Whether `wanted` already exists among `existing` (an idempotent request), or is new. Throws as
 * MongoDB does: same name with another key → 86 IndexKeySpecsConflict; same name and key with other
 * options → 85 IndexOptionsConflict; the same index under another name → 85.
 */
export function findExistingIndex(existing: readonly IndexSpec[], wanted: IndexSpec): IndexSpec | undefined {
  const sameName = existing.find((e) => e.name === wanted.name);
  const requested = () => `Requested index: ${printDocument(describeIndex(wanted))}`;
  if (sameName) {
    const current = `existing index: ${printDocument(describeIndex(sameName))}`;
    if (valueKey(sameName.key) !== valueKey(wanted.key)) {
      throw new CommandError(
        "IndexKeySpecsConflict",
        "An existing index has the same name as the requested index. When index names are not specified, they " +
          `are auto generated and can cause conflicts. Please refer to our documentation. ${requested()}, ${current}`,
      );
    }
    if (optionsKey(sameName) !== optionsKey(wanted)) {
      throw new CommandError(
        "IndexOptionsConflict",
        `An equivalent index already exists with the same name but different options. ${requested()}, ${current}`,
      );
    }
    return sameName;
  }
  const sameKey = existing.find(
    (e) =>
      valueKey(e.key) === valueKey(wanted.key) &&
      valueKey(e.partialFilterExpression ?? null) === valueKey(wanted.partialFilterExpression ?? null),
  );
  if (sameKey) {
    throw new CommandError(
      "IndexOptionsConflict",
      `Index already exists with a different name: ${sameKey.name}`,
    );
  }
  return undefined;
}

function optionsKey(spec: IndexSpec): string {
  const { unique, sparse, partialFilterExpression, expireAfterSeconds } = spec;
  return valueKey({
    unique: spec.name === ID_INDEX.name ? true : unique,
    sparse,
    partialFilterExpression: partialFilterExpression ?? null,
    expireAfterSeconds: expireAfterSeconds ?? null,
  });
}
