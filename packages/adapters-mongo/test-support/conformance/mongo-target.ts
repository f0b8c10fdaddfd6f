// Where the conformance suite runs: the wire-protocol test double, or a real MongoDB at MONGODB_URI.
import { randomBytes } from "node:crypto";
import { type Db, MongoClient } from "mongodb";
import { countCommands } from "../command-counter.js";
import { startWireDouble, type WireDouble } from "../wire-double/index.js";

/** A server under test, a client on it and a fresh database for this run. */
export interface MongoTarget {
  /** True for the test double (tests of double-only behaviour check it). */
  readonly isDouble: boolean;
  readonly client: MongoClient;
  readonly db: Db;
  /** Another client on the same server (a second platform instance). */
  newClient(): Promise<MongoClient>;
  /** Names of the commands `client` sent while `run` ran, upkeep left out (see countCommands). */
  commandsDuring(run: () => Promise<unknown>): Promise<string[]>;
  /** Lets the TTL monitor act: the double sweeps now; a server is polled until `done()` (≤ 75 s). */
  awaitTtl(done: () => Promise<boolean>): Promise<void>;
  /** Drops the run's database and closes every client (and the double). */
  close(): Promise<void>;
}

/** How long a test waits for a real server's TTL monitor (it runs every 60 s by default). */
export const SERVER_TTL_WAIT_MS = 75_000;

const CLIENT_OPTIONS = { serverSelectionTimeoutMS: 5_000, monitorCommands: true } as const;

/** A target on a fresh wire double. */
export async function openDoubleTarget(): Promise<MongoTarget> {
  const double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  return openTarget(double.uri, double);
}

/** A target on the server at `uri` (a database of its own, dropped at the end). */
export async function openServerTarget(uri: string): Promise<MongoTarget> {
  return openTarget(uri, undefined);
}

async function openTarget(uri: string, double: WireDouble | undefined): Promise<MongoTarget> {
  const clients: MongoClient[] = [];
  const connect = async () => {
    const c = new MongoClient(uri, CLIENT_OPTIONS);
    clients.push(c);
    await c.connect();
    return c;
  };
  const client = await connect();
  const db = client.db(`conformance_${randomBytes(4).toString("hex")}`);
  const restoreTtl = double ? async () => {} : await speedUpServerTtl(client);
  return {
    isDouble: double !== undefined,
    client,
    db,
    newClient: connect,
    async commandsDuring(run) {
      const counter = countCommands(client);
      try {
        return await counter.during(run);
      } finally {
        counter.stop();
      }
    },
    async awaitTtl(done) {
      if (double) {
        double.sweepExpired();
        return;
      }
      const deadline = Date.now() + SERVER_TTL_WAIT_MS;
      while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    },
    async close() {
      await db.dropDatabase().catch(() => undefined);
      await restoreTtl();
      for (const c of clients) await c.close();
      await double?.close();
    },
  };
}

/**
 * A self-managed mongod lets its TTL monitor run every second for the run (the old value is put back
 * at the end); Atlas refuses, and the TTL test waits for the 60 s monitor instead.
 */
async function speedUpServerTtl(client: MongoClient): Promise<() => Promise<void>> {
  const admin = client.db("admin");
  const before = await admin.command({ getParameter: 1, ttlMonitorSleepSecs: 1 }).catch(() => undefined);
  const previous = before?.ttlMonitorSleepSecs;
  if (typeof previous !== "number") return async () => {};
  const changed = await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 1 }).then(
    () => true,
    () => false,
  );
  return async () => {
    if (changed)
      await admin.command({ setParameter: 1, ttlMonitorSleepSecs: previous }).catch(() => undefined);
  };
}
