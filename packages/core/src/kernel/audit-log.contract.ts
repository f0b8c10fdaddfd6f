import { describe, expect, it } from "vitest";
import type { AuditLog } from "./audit-log.js";
import type { AuditSink } from "./audit-sink.js";
import { type Clock, ManualClock } from "./clock.js";
import { codeOf } from "./error-code.test-support.js";

const T0 = Date.UTC(2026, 0, 1);

/** What the AuditLog contract runs against: the sink that writes and the log that reads one trail. */
export interface AuditTrailUnderTest {
  sink: AuditSink;
  log: AuditLog;
  /** Waits until recorded events are readable (an asynchronous sink); optional. */
  settle?: () => Promise<void>;
}

/**
 * The behaviour every AuditLog adapter must show. `factory` returns a fresh, empty trail whose sink
 * stamps events without `at` from the given clock (a ManualClock the suite moves).
 */
export function describeAuditLogContract(
  name: string,
  factory: (clock: Clock) => Promise<AuditTrailUnderTest> | AuditTrailUnderTest,
): void {
  describe(`AuditLog contract: ${name}`, () => {
    async function setup(): Promise<AuditTrailUnderTest & { clock: ManualClock; read: AuditLog["query"] }> {
      const clock = new ManualClock(T0);
      const trail = await factory(clock);
      const read: AuditLog["query"] = async (query) => {
        await trail.settle?.();
        return trail.log.query(query);
      };
      return { ...trail, clock, read };
    }

    it("reads nothing from an empty trail", async () => {
      const { read } = await setup();
      expect(await read()).toEqual([]);
      expect(await read({ type: "auth.login.success" })).toEqual([]);
    });

    it("returns what the sink recorded, oldest first, stamped by the clock when `at` is absent", async () => {
      const { sink, clock, read } = await setup();
      sink.record({ type: "a", principal: "alice", outcome: "success", data: { n: 1 } });
      clock.advance(1000);
      sink.record({ type: "b", at: T0 + 5 });
      expect(await read()).toEqual([
        { type: "a", at: T0, principal: "alice", outcome: "success", data: { n: 1 } },
        { type: "b", at: T0 + 5 },
      ]);
    });

    it("filters by exact type, principal and outcome; every given filter must match", async () => {
      const { sink, read } = await setup();
      sink.record({ type: "authz.denied", principal: "alice", outcome: "denied" });
      sink.record({ type: "authz.denied", principal: "bob", outcome: "denied" });
      sink.record({ type: "auth.login.success", principal: "alice", outcome: "success" });
      sink.record({ type: "authz.denied.extra", principal: "alice", outcome: "denied" });
      const types = async (q: Parameters<AuditLog["query"]>[0]) =>
        (await read(q)).map((e) => `${e.type}/${e.principal}`);
      expect(await types({ type: "authz.denied" })).toEqual(["authz.denied/alice", "authz.denied/bob"]);
      expect(await types({ principal: "alice", outcome: "denied" })).toEqual([
        "authz.denied/alice",
        "authz.denied.extra/alice",
      ]);
      expect(await types({ type: "authz.denied", principal: "bob", outcome: "success" })).toEqual([]);
    });

    it("bounds by time: `since` inclusive, `until` exclusive", async () => {
      const { sink, read } = await setup();
      for (const at of [T0, T0 + 10, T0 + 20, T0 + 30]) sink.record({ type: "t", at });
      const ats = async (q: Parameters<AuditLog["query"]>[0]) => (await read(q)).map((e) => e.at);
      expect(await ats({ since: T0 + 10, until: T0 + 30 })).toEqual([T0 + 10, T0 + 20]);
      expect(await ats({ since: T0 + 31 })).toEqual([]);
      expect(await ats({ until: T0 })).toEqual([]);
    });

    it("returns the most recent `limit` matches (100 by default), still oldest first", async () => {
      const { sink, read } = await setup();
      for (let i = 0; i < 105; i++) sink.record({ type: i % 2 === 0 ? "even" : "odd", at: T0 + i });
      const all = await read();
      expect(all).toHaveLength(100);
      expect(all[0]?.at).toBe(T0 + 5);
      expect(all[99]?.at).toBe(T0 + 104);
      expect((await read({ type: "odd", limit: 2 })).map((e) => e.at)).toEqual([T0 + 101, T0 + 103]);
    });

    it("refuses a limit outside 1 to 1000 or not an integer with VALIDATION_FAILED", async () => {
      const { log } = await setup();
      for (const limit of [0, -1, 1.5, 1001, Number.NaN]) {
        expect(await codeOf(log.query({ limit }))).toBe("VALIDATION_FAILED");
      }
    });
  });
}
