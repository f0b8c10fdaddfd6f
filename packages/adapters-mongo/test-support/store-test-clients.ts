// Helpers for a store's Mongo-specific tests inside `describeAgainstMongo`: the same database seen
// through a second client (a second platform instance), and the commands a call sends.
import { type CommandStartedEvent, type Db, MongoClient } from "mongodb";

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

/** The names of the commands `db`'s client sent while `run` ran (its client monitors commands). */
export async function commandsDuring(db: Db, run: () => Promise<unknown>): Promise<string[]> {
  const names: string[] = [];
  const listener = (e: CommandStartedEvent) => {
    if (e.databaseName === db.databaseName) names.push(e.commandName);
  };
  db.client.on("commandStarted", listener);
  try {
    await run();
  } finally {
    db.client.off("commandStarted", listener);
  }
  return names;
}
