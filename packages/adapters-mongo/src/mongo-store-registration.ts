import type { Db } from "mongodb";
import type { DependencyContainer, InjectionToken } from "tsyringe";

/** A MongoDB store: it knows its collections' indexes and creates them, idempotently, at start. */
export interface MongoStore {
  /** Creates the store's indexes (idempotent; mongoPlugin runs it at start, before any start hook). */
  ensureIndexes(): Promise<void>;
  /**
   * Finishes what the store still holds in process (the audit trail's queued events) before the
   * plugin closes its client at stop. Optional; must not throw.
   */
  flush?(): Promise<void>;
}

/** How mongoPlugin replaces one port: the token and a factory of the Mongo store behind it. */
export interface MongoStoreRegistration<T = unknown> {
  readonly token: InjectionToken<T>;
  /** Builds the store on `db`; other ports (Clock, IdGenerator…) come from `container`. */
  create(db: Db, container: DependencyContainer): T & MongoStore;
}

/** Types one registration (the list of a group holds registrations of different ports). */
export function mongoStore<T>(
  token: InjectionToken<T>,
  create: (db: Db, container: DependencyContainer) => T & MongoStore,
): MongoStoreRegistration {
  return { token, create } as MongoStoreRegistration;
}
