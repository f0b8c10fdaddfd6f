// Helper for a store's Mongo-specific tests inside `describeAgainstMongo`: the same database seen
// through a second client (a second platform instance). Commands a call sends: command-counter.ts.
import { type Db, MongoClient } from "mongodb";

/**
 * The database `db` through a new client on the same server: the wire double it runs on, or the
 * server at MONGODB_URI. `close()` closes that client.
 */
export async function secondInstanceDb(db: Db): Promise<{ db: Db; close: () => Promise<void> }> {
  const hello = await db.admin().command({ hello: 1 });
  const uri =
    hello.wireDouble === true
      ? `mongodb://${String(db.client.options.hosts[0])}/?directConnection=true`
      : (process.env.MONGODB_URI ?? "");
  const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 }).connect();
  return { db: client.db(db.databaseName), close: () => client.close() };
}
