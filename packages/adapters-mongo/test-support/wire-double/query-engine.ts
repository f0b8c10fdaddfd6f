// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Filters, sorts and projections through mingo, the kept MongoDB query engine in JS.
import type { Document } from "bson";
import { find, Query } from "mingo";
import { cloneDocument } from "./bson-values.js";
import { CommandError, notImplemented } from "./command-error.js";

/** What selects documents: a filter, then sort, skip and limit (0 or absent: no limit). */
export interface Selection {
  filter?: Document;
  sort?: Document;
  skip?: number;
  limit?: number;
}

/** The stored documents (not copies) that `selection` picks from `docs`, in order. */
export function selectDocuments(docs: Document[], selection: Selection): Document[] {
  const filter = asDocument(selection.filter, "filter") ?? {};
  const query = new Query(filter);
  let picked = docs.filter((d) => query.test(d));
  const sort = asDocument(selection.sort, "sort");
  if (sort && Object.keys(sort).length > 0) {
    checkSort(sort);
    picked = find(picked, {}).sort(sort).all() as Document[];
  }
  const skip = nonNegative(selection.skip, "skip");
  const limit = Math.abs(Number(selection.limit ?? 0));
  if (skip > 0) picked = picked.slice(skip);
  if (limit > 0) picked = picked.slice(0, limit);
  return picked;
}

/** A copy of `doc` with `projection` applied (`_id` first, as MongoDB returns it). */
export function projectDocument(doc: Document, projection: Document | undefined): Document {
  const copy = cloneDocument(doc);
  if (!projection || Object.keys(projection).length === 0) return copy;
  const [projected] = find([copy], {}, projection).all() as Document[];
  if (!projected || !("_id" in projected)) return projected ?? {};
  const { _id, ...rest } = projected;
  return { _id, ...rest };
}

/** True when `doc` matches `filter`. */
export function matches(doc: Document, filter: Document | undefined): boolean {
  return new Query(filter ?? {}).test(doc);
}

/** Refuses the options of a read or write the double does not implement. */
export function refuseUnsupported(cmd: Document, options: readonly string[]): void {
  for (const option of options) {
    if (cmd[option] !== undefined) throw notImplemented(`option '${option}'`);
  }
}

function checkSort(sort: Document): void {
  for (const [field, dir] of Object.entries(sort)) {
    if (dir !== 1 && dir !== -1) {
      if (dir !== null && typeof dir === "object")
        throw notImplemented(`sort ${JSON.stringify(dir)} on '${field}'`);
      throw new CommandError(
        "BadValue",
        `$sort key ordering must be 1 (for ascending) or -1 (for descending)`,
      );
    }
  }
}

function asDocument(value: unknown, name: string): Document | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new CommandError("BadValue", `'${name}' must be an object`);
  }
  return value as Document;
}

function nonNegative(value: unknown, name: string): number {
  const n = Number(value ?? 0);
  if (!Number.isInteger(n) || n < 0)
    throw new CommandError("BadValue", `${name} value must be a non-negative integer`);
  return n;
}
