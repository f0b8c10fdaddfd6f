import { copySessionData } from "./session-data-copy.js";
import type { SessionRecord } from "./session-store.js";

/** The accessor every SharedSessionRecord's own `data` property is defined with (set once, below). */
let dataProperty: PropertyDescriptor;

/**
 * One reader's record of a stored session whose data is frozen (`frozenSessionData`): its `data` is
 * that reader's own deep copy, made on first access, so a reader may change it and `save` exactly
 * as with a copy made on read; `sessionDataToRead` reads the frozen data itself, without a copy, for
 * as long as the reader has not asked for its own. Nothing a reader does reaches the frozen data: it
 * cannot be changed, only replaced by the store's next `save`. `data` is an own, enumerable accessor
 * (one shared descriptor, so records keep one fast shape), so the record looks like any other
 * (`Object.keys`, spreading, `toEqual`); the state behind it is private.
 */
class SharedSessionRecord implements SessionRecord {
  // Declared only: each is set once in the constructor, in this order (no field defined as undefined first).
  declare readonly id: string;
  declare readonly userId?: string;
  declare data: Record<string, unknown>;
  declare readonly createdAt: number;
  declare lastAccessedAt: number;
  declare expiresAt: number;
  readonly #frozen: Readonly<Record<string, unknown>>;
  #copy: Record<string, unknown> | undefined;

  constructor(stored: SessionRecord, frozen: Readonly<Record<string, unknown>>) {
    this.id = stored.id;
    // Absent rather than undefined, as in a copy of a record without a user.
    if (stored.userId !== undefined) this.userId = stored.userId;
    Object.defineProperty(this, "data", dataProperty);
    this.createdAt = stored.createdAt;
    this.lastAccessedAt = stored.lastAccessedAt;
    this.expiresAt = stored.expiresAt;
    this.#frozen = frozen;
  }

  static {
    dataProperty = {
      get(this: SharedSessionRecord): Record<string, unknown> {
        if (this.#copy === undefined) this.#copy = copySessionData(this.#frozen);
        return this.#copy;
      },
      set(this: SharedSessionRecord, value: Record<string, unknown>) {
        this.#copy = value;
      },
      enumerable: true,
      configurable: true,
    };
  }

  /** The frozen data until the reader asked for `data`, then its copy (see `sessionDataToRead`). */
  static dataToRead(record: SessionRecord): Readonly<Record<string, unknown>> {
    if (!(#frozen in record)) return record.data;
    const shared = record as SharedSessionRecord;
    return shared.#copy ?? shared.#frozen;
  }
}

/** A record over a stored session's frozen data for one reader (see SharedSessionRecord). */
export function sharedSessionRecord(
  stored: SessionRecord,
  frozen: Readonly<Record<string, unknown>>,
): SessionRecord {
  return new SharedSessionRecord(stored, frozen);
}

/**
 * The data to read a session's values from without changing them: a shared record's frozen data
 * until its reader asked for `data` (from then on that copy, which may hold unsaved changes of this
 * reader), any other record's `data`. Its values are read-only: a frozen one throws when changed.
 */
export function sessionDataToRead(record: SessionRecord): Readonly<Record<string, unknown>> {
  return SharedSessionRecord.dataToRead(record);
}
