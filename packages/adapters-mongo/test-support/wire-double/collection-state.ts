// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// One collection: its documents in insertion order and its indexes, with unique, partial-unique and
// TTL semantics. Every method runs to completion synchronously, so every command is atomic.
import type { Document } from "bson";
import { Query } from "mingo";
import { hasPath, printDocument, valueKey, valuesAtPath } from "./bson-values.js";
import { CommandError } from "./command-error.js";
import { ID_INDEX, type IndexSpec } from "./index-spec.js";

interface IndexKey {
  key: string;
  /** The key's values, by field, for a duplicate-key error's `keyValue`. */
  values: Document;
}

interface IndexState {
  spec: IndexSpec;
  partial?: Query;
  /** Unique indexes other than `_id_`: index key → key of the owning document. */
  owners?: Map<string, string>;
}

/** The documents and indexes of one namespace. */
export class CollectionState {
  /** Documents by `valueKey(_id)`, in insertion order (the double's natural order). */
  readonly docs = new Map<string, Document>();
  private readonly indexStates: IndexState[] = [{ spec: ID_INDEX }];
  /** The collection's validator (the `create` command's `validator`), as given and compiled. */
  private validation?: { spec: Document; query: Query };

  constructor(
    readonly db: string,
    readonly name: string,
  ) {}

  /** `db.collection`. */
  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  /** The indexes, `_id_` first. */
  get indexes(): IndexSpec[] {
    return this.indexStates.map((s) => s.spec);
  }

  /** The validator given to `create`, or undefined. */
  get validator(): Document | undefined {
    return this.validation?.spec;
  }

  /** Sets the validator every later insert and update must pass (validationLevel strict, action error). */
  setValidator(spec: Document): void {
    this.validation = { spec, query: new Query(spec) };
  }

  /** The documents in natural order (the stored objects: callers copy before handing them out). */
  all(): Document[] {
    return [...this.docs.values()];
  }

  /** Adds a document (with its `_id`); a duplicate key throws 11000 and changes nothing. */
  insert(doc: Document): void {
    const id = valueKey(doc._id);
    if (this.docs.has(id)) throw this.duplicate(ID_INDEX, { values: { _id: doc._id } });
    this.validate(doc);
    const keys = this.checkUnique(doc, id);
    this.docs.set(id, doc);
    this.addKeys(keys, id);
  }

  /** Replaces the document stored under `id` (its `_id` unchanged); a duplicate key throws 11000. */
  replace(id: string, doc: Document): void {
    const old = this.docs.get(id);
    if (!old) throw new CommandError("InternalError", "wire double: replacing a missing document");
    this.validate(doc);
    const keys = this.checkUnique(doc, id);
    this.removeKeys(old, id);
    this.docs.set(id, doc);
    this.addKeys(keys, id);
  }

  /** Removes the document stored under `id`. */
  remove(id: string): void {
    const old = this.docs.get(id);
    if (!old) return;
    this.removeKeys(old, id);
    this.docs.delete(id);
  }

  /** Adds an index; a unique index over duplicate data throws 11000 and is not added. */
  addIndex(spec: IndexSpec): void {
    const state: IndexState = { spec };
    if (spec.partialFilterExpression) state.partial = new Query(spec.partialFilterExpression);
    if (spec.unique) {
      state.owners = new Map();
      for (const [id, doc] of this.docs) {
        for (const k of this.keysOf(state, doc)) {
          if (state.owners.has(k.key)) throw this.duplicate(spec, k);
          state.owners.set(k.key, id);
        }
      }
    }
    this.indexStates.push(state);
  }

  /** Removes every document a TTL index says has expired at `nowMs`; returns how many. */
  sweepExpired(nowMs: number): number {
    let removed = 0;
    for (const state of this.indexStates) {
      const seconds = state.spec.expireAfterSeconds;
      if (seconds === undefined) continue;
      const path = Object.keys(state.spec.key)[0] as string;
      for (const [id, doc] of [...this.docs]) {
        if (state.partial && !state.partial.test(doc)) continue;
        const dates = valuesAtPath(doc, path).filter((v): v is Date => v instanceof Date);
        if (dates.length === 0) continue;
        const earliest = Math.min(...dates.map((d) => d.getTime()));
        if (earliest + seconds * 1000 <= nowMs) {
          this.remove(id);
          removed++;
        }
      }
    }
    return removed;
  }

  /** 121 DocumentValidationFailure when `doc` fails the validator (nothing is written). */
  private validate(doc: Document): void {
    if (!this.validation || this.validation.query.test(doc)) return;
    throw new CommandError("DocumentValidationFailure", "Document failed validation", {
      errInfo: { failingDocumentId: doc._id },
    });
  }

  private checkUnique(doc: Document, id: string): { state: IndexState; keys: IndexKey[] }[] {
    const found: { state: IndexState; keys: IndexKey[] }[] = [];
    for (const state of this.indexStates) {
      if (!state.owners) continue;
      const keys = this.keysOf(state, doc);
      for (const k of keys) {
        const owner = state.owners.get(k.key);
        if (owner !== undefined && owner !== id) throw this.duplicate(state.spec, k);
      }
      found.push({ state, keys });
    }
    return found;
  }

  private addKeys(found: { state: IndexState; keys: IndexKey[] }[], id: string): void {
    for (const { state, keys } of found) for (const k of keys) state.owners?.set(k.key, id);
  }

  private removeKeys(doc: Document, id: string): void {
    for (const state of this.indexStates) {
      if (!state.owners) continue;
      for (const k of this.keysOf(state, doc)) if (state.owners.get(k.key) === id) state.owners.delete(k.key);
    }
  }

  /** The index keys of `doc` (none when a partial or sparse index leaves it out). */
  private keysOf(state: IndexState, doc: Document): IndexKey[] {
    const fields = Object.keys(state.spec.key);
    if (state.partial && !state.partial.test(doc)) return [];
    if (state.spec.sparse && !fields.some((f) => hasPath(doc, f))) return [];
    let tuples: unknown[][] = [[]];
    for (const field of fields) {
      const values = valuesAtPath(doc, field);
      tuples = tuples.flatMap((t) => values.map((v) => [...t, v]));
    }
    const byKey = new Map<string, IndexKey>();
    for (const tuple of tuples) {
      const key = JSON.stringify(tuple.map(valueKey));
      const values: Document = {};
      fields.forEach((f, i) => {
        values[f] = tuple[i] === undefined ? null : tuple[i];
      });
      byKey.set(key, { key, values });
    }
    return [...byKey.values()];
  }

  private duplicate(spec: IndexSpec, k: { values: Document }): CommandError {
    return new CommandError(
      "DuplicateKey",
      `E11000 duplicate key error collection: ${this.ns} index: ${spec.name} dup key: ${printDocument(k.values)}`,
      { keyPattern: spec.key, keyValue: k.values },
    );
  }
}
