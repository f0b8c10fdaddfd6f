// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// Open cursors. A cursor holds the copies its query produced (a snapshot taken when it opened).
import type { Document } from "bson";
import { CommandError } from "./command-error.js";

/** Documents in a first batch when the client names no batch size, as MongoDB does. */
export const DEFAULT_FIRST_BATCH = 101;

interface OpenCursor {
  ns: string;
  docs: Document[];
  position: number;
}

/** Cursor ids → remaining results; ids are int64 on the wire. */
export class CursorRegistry {
  private readonly open = new Map<number, OpenCursor>();
  private nextId = 1_000_001;

  /** How many cursors are open (tests check that exhausted and killed cursors go). */
  get size(): number {
    return this.open.size;
  }

  /** The `cursor` answer of find/aggregate/listIndexes: a first batch, and a cursor when more remain. */
  firstBatch(ns: string, docs: Document[], batchSize: unknown, singleBatch = false): Document {
    const size = batchSize === undefined || batchSize === null ? DEFAULT_FIRST_BATCH : Number(batchSize);
    if (!Number.isInteger(size) || size < 0)
      throw new CommandError("BadValue", "batchSize must be non-negative");
    const firstBatch = docs.slice(0, size);
    let id = 0;
    if (!singleBatch && docs.length > size) {
      id = this.nextId++;
      this.open.set(id, { ns, docs, position: size });
    }
    return { cursor: { firstBatch, id: BigInt(id), ns }, ok: 1 };
  }

  /** The `getMore` answer; the cursor closes when it runs out. */
  getMore(id: number, batchSize: unknown): Document {
    const cursor = this.open.get(id);
    if (!cursor) throw new CommandError("CursorNotFound", `cursor id ${id} not found`);
    const size =
      batchSize === undefined || batchSize === null || Number(batchSize) <= 0 ? Infinity : Number(batchSize);
    const nextBatch = cursor.docs.slice(cursor.position, cursor.position + size);
    cursor.position += nextBatch.length;
    const done = cursor.position >= cursor.docs.length;
    if (done) this.open.delete(id);
    return { cursor: { nextBatch, id: BigInt(done ? 0 : id), ns: cursor.ns }, ok: 1 };
  }

  /** Closes cursors; answers which were killed and which were not found. */
  kill(ids: number[]): { killed: number[]; notFound: number[] } {
    const killed: number[] = [];
    const notFound: number[] = [];
    for (const id of ids) (this.open.delete(id) ? killed : notFound).push(id);
    return { killed, notFound };
  }
}
