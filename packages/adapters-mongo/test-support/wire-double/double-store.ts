// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
import { CollectionState } from "./collection-state.js";

/** Every database of one double: name → collection name → collection. Process memory only. */
export class DoubleStore {
  private readonly databases = new Map<string, Map<string, CollectionState>>();

  /** The collection, or undefined when it does not exist. */
  find(db: string, name: string): CollectionState | undefined {
    return this.databases.get(db)?.get(name);
  }

  /** The collection, created (as MongoDB does on a first write) when missing. */
  obtain(db: string, name: string): { collection: CollectionState; created: boolean } {
    let colls = this.databases.get(db);
    if (!colls) {
      colls = new Map();
      this.databases.set(db, colls);
    }
    const existing = colls.get(name);
    if (existing) return { collection: existing, created: false };
    const collection = new CollectionState(db, name);
    colls.set(name, collection);
    return { collection, created: true };
  }

  /** The collections of a database, in creation order. */
  list(db: string): CollectionState[] {
    return [...(this.databases.get(db)?.values() ?? [])];
  }

  /** Every collection of every database. */
  everyCollection(): CollectionState[] {
    return [...this.databases.values()].flatMap((colls) => [...colls.values()]);
  }

  /** Drops a collection; true when it existed. */
  drop(db: string, name: string): boolean {
    const colls = this.databases.get(db);
    const existed = colls?.delete(name) ?? false;
    if (colls && colls.size === 0) this.databases.delete(db);
    return existed;
  }

  /** Drops a database and its collections. */
  dropDatabase(db: string): void {
    this.databases.delete(db);
  }
}
