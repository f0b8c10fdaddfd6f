// What only the double does: its refusals, its injectable TTL clock, the legacy handshake, its cursors.
import { connect, type Socket } from "node:net";
import { deserialize, serialize } from "bson";
import { MongoClient, MongoServerError, ServerApiVersion } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWireDouble, type WireDouble } from "./index.js";
import { OpCode } from "./wire-messages.js";

async function serverError(work: Promise<unknown>): Promise<MongoServerError> {
  const e = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(MongoServerError);
  return e as MongoServerError;
}

describe("wire double", () => {
  let clock = Date.parse("2040-01-01T00:00:00Z");
  let double: WireDouble;
  let client: MongoClient;
  beforeAll(async () => {
    double = await startWireDouble({ now: () => clock, ttlMonitorIntervalMs: 0 });
    client = await new MongoClient(double.uri, { serverSelectionTimeoutMS: 2_000 }).connect();
  });
  afterAll(async () => {
    await client.close();
    await double.close();
  });
  const db = () => client.db("double_only");

  it("says it is a test double in hello and buildInfo", async () => {
    expect((await client.db("admin").command({ hello: 1 })).wireDouble).toBe(true);
    expect(await client.db("admin").command({ buildInfo: 1 })).toMatchObject({ gitVersion: "wire-double" });
  });

  it("refuses a command it does not implement with 59 CommandNotFound, naming it", async () => {
    for (const command of ["serverStatus", "distinct", "collMod", "wireDoubleNoSuchCommand"]) {
      const e = await serverError(db().command({ [command]: "c" }));
      expect(e.code).toBe(59);
      expect(e.codeName).toBe("CommandNotFound");
      expect(e.message).toBe(`wire double: command ${command} is not implemented`);
    }
  });

  it("refuses features it does not implement inside the commands it does", async () => {
    const c = db().collection("features");
    await c.insertOne({ a: 1 });
    const refusals: [() => Promise<unknown>, RegExp][] = [
      [
        () =>
          c.aggregate([{ $lookup: { from: "x", as: "y", localField: "a", foreignField: "b" } }]).toArray(),
        /pipeline stage \$lookup/,
      ],
      [() => c.updateOne({ a: 1 }, [{ $set: { b: 1 } }]), /pipeline-style update/],
      [() => c.updateOne({ a: 1 }, { $rename: { a: "b" } }), /update operator \$rename/],
      [() => c.find({}, { collation: { locale: "fr" } }).toArray(), /option 'collation'/],
      [() => c.createIndex({ a: "text" }), /index type "text"/],
      [() => c.createIndex({ a: 1 }, { collation: { locale: "fr" } }), /index option 'collation'/],
    ];
    for (const [work, message] of refusals) {
      const e = await serverError(work());
      expect(e.message).toMatch(/^wire double: /);
      expect(e.message).toMatch(message);
      expect(e.message).toMatch(/is not implemented$/);
    }
  });

  it("refuses transactions as a standalone server does (20 IllegalOperation)", async () => {
    const session = client.startSession();
    try {
      const error = await session
        .withTransaction(async () => {
          await db().collection("tx").insertOne({ a: 1 }, { session });
        })
        .catch((e: unknown) => e);
      // The driver recognises a standalone's answer and rewrites it, keeping the server's error.
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).message).toMatch(/does not support retryable writes/);
      const original = (error as { originalError?: MongoServerError }).originalError;
      expect(original?.code).toBe(20);
      expect(original?.codeName).toBe("IllegalOperation");
    } finally {
      await session.endSession();
    }
    expect(await db().collection("tx").countDocuments()).toBe(0);
  });

  it("expires TTL documents by its injected clock, when swept", async () => {
    const c = db().collection("ttl");
    await c.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 30 });
    await c.insertMany([
      { k: "a", expiresAt: new Date(clock) },
      { k: "b", expiresAt: new Date(clock + 60_000) },
    ]);
    expect(double.sweepExpired()).toBe(0);
    clock += 29_999;
    expect(double.sweepExpired()).toBe(0);
    clock += 1;
    expect(double.sweepExpired()).toBe(1);
    expect((await c.find().toArray()).map((d) => d.k)).toEqual(["b"]);
    clock += 60_000;
    expect(double.sweepExpired()).toBe(1);
    expect(await c.countDocuments()).toBe(0);
  });

  it("closes exhausted, single-batch and killed cursors", async () => {
    const c = db().collection("cursors");
    await c.insertMany(Array.from({ length: 12 }, (_, i) => ({ i })));
    await c.findOne({ i: 3 });
    await c.find().batchSize(5).toArray();
    expect(double.openCursors()).toBe(0);
    const open = c.find().batchSize(5);
    await open.next();
    expect(double.openCursors()).toBe(1);
    await open.close();
    expect(double.openCursors()).toBe(0);
  });

  it("answers a legacy OP_QUERY isMaster with an OP_REPLY", async () => {
    const reply = await rawExchange(double.port, opQuery("admin.$cmd", { isMaster: 1, helloOk: true }));
    expect(reply.readInt32LE(12)).toBe(OpCode.reply);
    expect(reply.readInt32LE(8)).toBe(7); // responseTo: our request id
    const doc = deserialize(reply.subarray(36));
    expect(doc).toMatchObject({ ok: 1, ismaster: true, helloOk: true, wireDouble: true });
  });

  it("accepts a client with a declared server API (OP_MSG from the first hello)", async () => {
    const versioned = new MongoClient(double.uri, {
      serverApi: ServerApiVersion.v1,
      serverSelectionTimeoutMS: 2_000,
    });
    try {
      await versioned.connect();
      expect(await versioned.db("x").command({ ping: 1 })).toMatchObject({ ok: 1 });
    } finally {
      await versioned.close();
    }
  });

  it("closes a connection that sends a malformed message", async () => {
    const bad = Buffer.alloc(16);
    bad.writeInt32LE(8, 0); // shorter than a header
    const socket = connect(double.port, "127.0.0.1");
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(bad);
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it("keeps each double's databases apart", async () => {
    const other = await startWireDouble({ ttlMonitorIntervalMs: 0 });
    const otherClient = await new MongoClient(other.uri).connect();
    try {
      await db().collection("apart").insertOne({ here: true });
      expect(await otherClient.db("double_only").collection("apart").countDocuments()).toBe(0);
    } finally {
      await otherClient.close();
      await other.close();
    }
  });

  it("stops (an outage: connections dropped, connection refused) and resumes on the same port with its data", async () => {
    const outage = await startWireDouble({ ttlMonitorIntervalMs: 0 });
    const c = await new MongoClient(outage.uri, { serverSelectionTimeoutMS: 300 }).connect();
    try {
      await c
        .db("outage")
        .collection("kept")
        .insertOne({ _id: 1 } as never);
      await outage.stop();
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect(outage.port, "127.0.0.1");
        socket.once("connect", () => resolve(false));
        socket.once("error", () => resolve(true));
      });
      expect(refused).toBe(true);
      await expect(c.db("outage").collection("kept").countDocuments()).rejects.toThrow();
      await outage.resume();
      expect(outage.uri).toBe(`mongodb://127.0.0.1:${outage.port}/?directConnection=true`);
      expect(await c.db("outage").collection("kept").countDocuments()).toBe(1);
    } finally {
      await c.close();
      await outage.close();
    }
  });
});

function opQuery(ns: string, query: object): Buffer {
  const body = Buffer.concat([
    Buffer.from([0, 0, 0, 0]),
    Buffer.from(`${ns}\0`, "utf8"),
    Buffer.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]),
    serialize(query),
  ]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + body.length, 0);
  header.writeInt32LE(7, 4);
  header.writeInt32LE(OpCode.query, 12);
  return Buffer.concat([header, body]);
}

function rawExchange(port: number, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1", () => socket.write(message));
    let got = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 4 && got.length >= got.readInt32LE(0)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on("error", reject);
  });
}
