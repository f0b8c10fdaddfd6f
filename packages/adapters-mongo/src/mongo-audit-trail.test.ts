import type { LogFields, Logger } from "@keyward/core/ports";
import { describeAuditLogContract, ManualClock } from "@keyward/core/testing";
import type { CommandStartedEvent } from "mongodb";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoAuditTrail } from "./mongo-audit-trail.js";

const T0 = Date.UTC(2026, 0, 1);
/** The contract records events at 2026-01-01: keep them whatever today's date on the server is. */
const TEN_YEARS_MS = 10 * 366 * 24 * 3_600_000;

class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; fields?: LogFields }[] = [];
  info(message: string, fields?: LogFields) {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: LogFields) {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: LogFields) {
    this.lines.push({ level: "error", message, fields });
  }
}

describeAgainstMongo("MongoAuditTrail", (freshDb) => {
  describeAuditLogContract("MongoAuditTrail", async (clock) => {
    const trail = new MongoAuditTrail({ db: await freshDb(), clock, retentionMs: TEN_YEARS_MS });
    await trail.ensureIndexes();
    return { sink: trail, log: trail, settle: () => trail.flush() };
  });

  describe("on MongoDB", () => {
    const setup = async (options: { maxQueued?: number; maxBatch?: number } = {}) => {
      const db = await freshDb();
      const clock = new ManualClock(T0);
      const logger = new RecordingLogger();
      const trail = new MongoAuditTrail({ db, clock, logger, retentionMs: TEN_YEARS_MS, ...options });
      await trail.ensureIndexes();
      return { db, clock, logger, trail };
    };

    it("writes a burst recorded in one tick with one insert, in recording order", async () => {
      const { db, trail } = await setup();
      const sent: string[] = [];
      const listener = (e: CommandStartedEvent) => sent.push(e.commandName);
      db.client.on("commandStarted", listener);
      try {
        for (let i = 0; i < 20; i++) trail.record({ type: "burst", at: T0, data: { i } });
        await trail.flush();
      } finally {
        db.client.off("commandStarted", listener);
      }
      expect(sent).toEqual(["insert"]);
      const read = await trail.query({ type: "burst" });
      expect(read.map((e) => e.data?.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it("keeps recording order across batches, one batch in flight at a time", async () => {
      const { trail } = await setup({ maxBatch: 3 });
      for (let i = 0; i < 10; i++) trail.record({ type: "t", at: T0, data: { i } });
      expect((await trail.query()).map((e) => e.data?.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it("never throws into the caller: a failed write is counted and logged once, then recovery once", async () => {
      const { db, logger, trail } = await setup();
      // A unique index the trail does not know of makes a second event with one correlation id fail.
      await db.collection("audit_events").createIndex({ correlationId: 1 }, { unique: true, sparse: true });
      trail.record({ type: "x", correlationId: "c-1" });
      await trail.flush();
      expect(() => trail.record({ type: "bad", correlationId: "c-1" })).not.toThrow();
      await trail.flush();
      expect(() => trail.record({ type: "bad", correlationId: "c-1" })).not.toThrow();
      await trail.flush();
      expect(trail.failed).toBe(2);
      expect(logger.lines.map((l) => l.level)).toEqual(["error"]);
      trail.record({ type: "good" });
      await trail.flush();
      expect(logger.lines.map((l) => l.level)).toEqual(["error", "info"]);
      expect((await trail.query()).map((e) => e.type)).toEqual(["x", "good"]);
    });

    it("drops and counts the oldest queued event when the queue is full, and a hostile event", async () => {
      const { trail } = await setup({ maxQueued: 2 });
      trail.record({ type: "a" });
      trail.record({ type: "b" });
      trail.record({ type: "c" });
      const hostile = {
        get type(): string {
          throw new Error("boom");
        },
      };
      expect(() => trail.record(hostile as never)).not.toThrow();
      expect(trail.dropped).toBe(2);
      expect((await trail.query()).map((e) => e.type)).toEqual(["b", "c"]);
    });

    it("takes filter values as values, never as query operators", async () => {
      const { trail } = await setup();
      trail.record({ type: "t", principal: "alice", _id: "mine", atDate: "x" } as never);
      expect(await trail.query()).toEqual([{ type: "t", principal: "alice", at: T0 }]);
      expect(await trail.query({ principal: { $ne: "nobody" } as never })).toEqual([]);
    });

    it("answers a query with one find, and creates its indexes idempotently with the retention TTL", async () => {
      const { db, trail } = await setup();
      await trail.ensureIndexes();
      const indexes = await db.collection("audit_events").listIndexes().toArray();
      expect(indexes.map((i) => i.name).sort()).toEqual([
        "_id_",
        "at",
        "principal_at",
        "retention_ttl",
        "type_at",
      ]);
      expect(indexes.find((i) => i.name === "retention_ttl")).toMatchObject({
        key: { atDate: 1 },
        expireAfterSeconds: Math.ceil(TEN_YEARS_MS / 1000),
      });
      const sent: string[] = [];
      const listener = (e: CommandStartedEvent) => sent.push(e.commandName);
      db.client.on("commandStarted", listener);
      try {
        await trail.query({
          type: "t",
          principal: "p",
          outcome: "success",
          since: T0,
          until: T0 + 1,
          limit: 5,
        });
      } finally {
        db.client.off("commandStarted", listener);
      }
      expect(sent).toEqual(["find"]);
    });
  });
});
