import type { Db } from "mongodb";
import { USERNAME_SKELETON_MIGRATION } from "./mongo-username-skeletons.js";

/** What a step found that an operator should see (logged as a warning at start); it did not fail. */
export interface MigrationReport {
  readonly message: string;
  readonly details: Record<string, unknown>;
}

/** One step of the database layout. Idempotent: it may run again after a crash midway. */
export interface MongoMigration {
  /** The schema version the database is at once it ran (1, 2, 3, … with no gap). */
  readonly version: number;
  /** What it changes, for the start-up log. */
  readonly description: string;
  /** Runs the step; what it passes to `report` is logged as a warning at start (it does not stop it). */
  up(db: Db, report: (finding: MigrationReport) => void): Promise<void>;
}

/**
 * The layouts of the database, oldest first. Version 1 is the layout docs/mongodb.md describes; a
 * database without a version (new, or written before versions were kept) gets it with nothing to
 * change, and the indexes are created after the migrations by each store. A change of layout adds a
 * step here (and never edits a released one).
 */
export const MONGO_MIGRATIONS: readonly MongoMigration[] = [
  { version: 1, description: "the first layout (docs/mongodb.md)", up: async () => {} },
  USERNAME_SKELETON_MIGRATION,
];
