import { copySessionData } from "./session-data-copy.js";
import type { SessionRecord } from "./session-store.js";

/** A shared record's data: the store's frozen data, and the reader's own copy once it asked for one. */
interface SharedData {
  readonly frozen: Readonly<Record<string, unknown>>;
  copy: Record<string, unknown> | undefined;
}

/** The records made by `sharedSessionRecord`, with their data (never reachable from outside). */
const shared = new WeakMap<SessionRecord, SharedData>();

/**
 * A record for one reader of a stored session whose data is frozen (`frozenSessionData`): its `data`
 * is that reader's own deep copy, made on first access (so a reader may change it and `save`, exactly
 * as with a copy made on read), while `sessionDataToRead` reads the frozen data itself, without a
 * copy, for as long as the reader has not asked for its own. Nothing a reader does reaches the frozen
 * data: it cannot be changed, only replaced by the store's next `save`.
 */
export function sharedSessionRecord(
  stored: SessionRecord,
  frozen: Readonly<Record<string, unknown>>,
): SessionRecord {
  const state: SharedData = { frozen, copy: undefined };
  const record: SessionRecord = {
    id: stored.id,
    get data(): Record<string, unknown> {
      if (state.copy === undefined) state.copy = copySessionData(state.frozen);
      return state.copy;
    },
    set data(value: Record<string, unknown>) {
      state.copy = value;
    },
    createdAt: stored.createdAt,
    lastAccessedAt: stored.lastAccessedAt,
    expiresAt: stored.expiresAt,
  };
  // Absent rather than undefined, as a copy of a record without a user has it.
  if (stored.userId !== undefined) (record as { userId?: string }).userId = stored.userId;
  shared.set(record, state);
  return record;
}

/**
 * The data to read a session's values from without changing them: a shared record's frozen data
 * until its reader asked for `data` (from then on that copy, which may hold unsaved changes of this
 * reader), any other record's `data`. Its values are read-only: a frozen one throws when changed.
 */
export function sessionDataToRead(record: SessionRecord): Readonly<Record<string, unknown>> {
  const state = shared.get(record);
  return state === undefined ? record.data : (state.copy ?? state.frozen);
}
