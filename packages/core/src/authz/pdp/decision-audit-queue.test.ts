import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../kernel/audit-sink.js";
import { DecisionAuditQueue } from "./decision-audit-queue.js";

describe("DecisionAuditQueue", () => {
  it("delivers after the caller returns, not during record()", () => {
    const seen: AuditEvent[] = [];
    let drain: (() => void) | undefined;
    const queue = new DecisionAuditQueue({
      sink: { record: (e) => seen.push(e) },
      schedule: (d) => (drain = d),
    });
    queue.record({ type: "authz.denied" });
    expect(seen).toEqual([]);
    drain!();
    expect(seen.map((e) => e.type)).toEqual(["authz.denied"]);
    expect(queue.stats()).toEqual({ recorded: 1, dropped: 0, failed: 0, pending: 0 });
  });

  it("a throwing sink never reaches the caller; failures are counted", () => {
    let drain: (() => void) | undefined;
    const queue = new DecisionAuditQueue({
      sink: {
        record: () => {
          throw new Error("disk full");
        },
      },
      schedule: (d) => (drain = d),
    });
    expect(() => queue.record({ type: "authz.denied" })).not.toThrow();
    drain!();
    expect(queue.stats().failed).toBe(1);
  });

  it("a sink that cannot keep up loses events counted as dropped, never silently", () => {
    const queue = new DecisionAuditQueue({ sink: { record: () => {} }, capacity: 2, schedule: () => {} });
    for (let i = 0; i < 5; i++) queue.record({ type: "authz.denied" });
    expect(queue.stats()).toEqual({ recorded: 0, dropped: 3, failed: 0, pending: 2 });
  });

  it("drains on its own with the default scheduler", async () => {
    const seen: string[] = [];
    const queue = new DecisionAuditQueue({ sink: { record: (e) => seen.push(e.type) } });
    queue.record({ type: "a" });
    queue.record({ type: "b" });
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["a", "b"]);
  });
});

describe("DecisionAuditQueue.accepts", () => {
  it("refuses and counts a drop when full, so callers skip building events under overload", () => {
    const queue = new DecisionAuditQueue({ sink: { record: () => {} }, capacity: 1, schedule: () => {} });
    expect(queue.accepts()).toBe(true);
    queue.record({ type: "a" });
    expect(queue.accepts()).toBe(false);
    expect(queue.stats()).toMatchObject({ dropped: 1, pending: 1 });
  });
});
