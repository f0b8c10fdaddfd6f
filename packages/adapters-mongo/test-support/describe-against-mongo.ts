// Runs a test body against the wire double always and against MONGODB_URI when set (not registered
// otherwise, so a run without a server counts no skipped tests), handing it fresh, empty databases:
// what an adapter's contract-suite run needs.
import type { Db } from "mongodb";
import { afterAll, beforeAll, describe } from "vitest";
import { type MongoTarget, openDoubleTarget, openServerTarget } from "./conformance/mongo-target.js";

/** Registers `body` once per target; `freshDb()` gives a new empty database on that target. */
export function describeAgainstMongo(name: string, body: (freshDb: () => Promise<Db>) => void): void {
  const uri = process.env.MONGODB_URI;
  const targets: [string, () => Promise<MongoTarget>][] = [["wire double", openDoubleTarget]];
  if (uri) targets.push(["real server", () => openServerTarget(uri)]);
  for (const [label, open] of targets) {
    describe(`${name} on ${label}`, () => {
      let target: MongoTarget | undefined;
      const dbs: Db[] = [];
      beforeAll(async () => {
        target = await open();
      });
      afterAll(async () => {
        for (const db of dbs) await db.dropDatabase().catch(() => undefined);
        await target?.close();
      });
      body(async () => {
        if (!target) throw new Error("mongo target not open");
        const db = target.client.db(`${target.db.databaseName}_${dbs.length + 1}`);
        dbs.push(db);
        return db;
      });
    });
  }
}
