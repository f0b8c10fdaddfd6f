// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Value helpers on deserialized BSON: copies, comparison keys, paths.
import { type Document, deserialize, EJSON, serialize } from "bson";

/** A deep, independent copy of a document (through BSON, so ObjectId, Date, Binary survive). */
export function cloneDocument(doc: Document): Document {
  return deserialize(serialize(doc), { promoteLongs: true, bsonRegExp: false });
}

/** True when both documents have the same BSON bytes (same fields, order and values). */
export function sameDocument(a: Document, b: Document): boolean {
  return Buffer.from(serialize(a)).equals(serialize(b));
}

/**
 * A string equal for equal BSON values: numbers by value (the double keeps int32, int64 and double
 * as one JS number), embedded documents field order included, as MongoDB compares index keys.
 */
export function valueKey(value: unknown): string {
  if (value === undefined) return "null";
  return EJSON.stringify(value as Document, { relaxed: true });
}

/**
 * Every value an index on `path` sees in `doc`: arrays fan out (multikey), a missing field is
 * `null`, as MongoDB indexes it.
 */
export function valuesAtPath(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(doc, path.split("."), 0, out);
  return out.length === 0 ? [null] : out;
}

function collect(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else for (const v of value) out.push(v);
    } else {
      out.push(value === undefined ? null : value);
    }
    return;
  }
  if (Array.isArray(value)) {
    const part = parts[i] as string;
    if (/^\d+$/.test(part)) collect(value[Number(part)], parts, i + 1, out);
    else for (const v of value) if (v !== null && typeof v === "object") collect(v, parts, i, out);
    return;
  }
  if (value === null || typeof value !== "object") {
    out.push(null);
    return;
  }
  collect((value as Document)[parts[i] as string], parts, i + 1, out);
}

/** True when `doc` has a value (null included) at `path`. */
export function hasPath(doc: unknown, path: string): boolean {
  let cur: unknown = doc;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object" || !(part in (cur as Document))) return false;
    cur = (cur as Document)[part];
  }
  return true;
}

/** A value as MongoDB's messages print it (`"a"`, `12`, `ObjectId('…')`, `new Date(…)`). */
export function printValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (typeof value === "object" && (value as { _bsontype?: string })._bsontype === "ObjectId") {
    return `ObjectId('${String(value)}')`;
  }
  return EJSON.stringify(value as Document, { relaxed: true });
}

/** `{ a: 1, b: "x" }` as MongoDB prints a document in an error message. */
export function printDocument(doc: Document): string {
  const fields = Object.entries(doc).map(([k, v]) => `${k}: ${printValue(v)}`);
  return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
}
