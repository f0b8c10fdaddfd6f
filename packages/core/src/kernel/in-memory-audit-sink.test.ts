import { describe, expect, it } from "vitest";
import { ManualClock } from "./clock.js";
import { InMemoryAuditSink } from "./in-memory-audit-sink.js";
import { describeAuditLogContract } from "./audit-log.contract.js";

describeAuditLogContract("InMemoryAuditSink", (clock) => {
  const trail = new InMemoryAuditSink(1_000, clock);
  return { sink: trail, log: trail };
});

describe("InMemoryAuditSink", () => {
  it("keeps events in order and stamps them with the clock", () => {
    const clock = new ManualClock(1000);
    const sink = new InMemoryAuditSink(10, clock);
    sink.record({ type: "a" });
    clock.advance(5);
    sink.record({ type: "b", at: 42 });
    expect(sink.events()).toEqual([
      { type: "a", at: 1000 },
      { type: "b", at: 42 },
    ]);
    expect(sink.dropped).toBe(0);
  });

  it("is bounded: drops the oldest and counts the drops", () => {
    const sink = new InMemoryAuditSink(3, new ManualClock());
    for (let i = 0; i < 10; i++) sink.record({ type: `e${i}` });
    expect(sink.events().map((e) => e.type)).toEqual(["e7", "e8", "e9"]);
    expect(sink.dropped).toBe(7);
  });

  it("never throws into the caller, even for a hostile event", () => {
    const sink = new InMemoryAuditSink(2, new ManualClock());
    const hostile = Object.defineProperty({ type: "x" }, "data", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(() => sink.record(hostile)).not.toThrow();
    expect(sink.dropped).toBe(1);
  });

  it("refuses a non-positive capacity", () => {
    expect(() => new InMemoryAuditSink(0, new ManualClock())).toThrow(RangeError);
  });
});
