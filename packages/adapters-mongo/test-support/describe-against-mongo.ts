// Runs a test body against the wire double always and against MONGODB_URI when set (shown skipped
// otherwise), handing it fresh, empty databases: what an adapter's contract-suite run needs.
import type { Db } from "mongodb";
import { afterAll, beforeAll, describe } from "vitest";
import { type MongoTarget, openDoubleTarget, openServerTarget } from "./conformance/mongo-target.js";

/** Registers `body` once per target; `freshDb()` gives a new empty database on that target. */
export function describeAgainstMongo(name: string, body: (freshDb: () => Promise<Db>) => void): void {
  const uri = process.env.MONGODB_URI;
  const targets: [string, boolean, () => Promise<MongoTarget>][] = [
    ["wire double", true, openDoubleTarget],
    [
      "real server (skipped: set MONGODB_URI to run)",
      uri !== undefined && uri !== "",
      () => openServerTarget(uri ?? ""),
    ],
  ];
  for (const [label, enabled, open] of targets) {
    describe.skipIf(!enabled)(`${name} on ${label}`, () => {
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
