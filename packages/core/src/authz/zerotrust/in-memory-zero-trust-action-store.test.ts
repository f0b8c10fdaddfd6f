import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryZeroTrustActionStore } from "./in-memory-zero-trust-action-store.js";
import { describeZeroTrustActionStoreContract } from "./zero-trust-action-store.contract.js";

describeZeroTrustActionStoreContract(
  "InMemoryZeroTrustActionStore",
  (clock) => new InMemoryZeroTrustActionStore({ clock }),
);

describe("InMemoryZeroTrustActionStore", () => {
  const put = (
    store: InMemoryZeroTrustActionStore,
    subject: string,
    action: "ALLOW" | "BLOCK",
    ttl = 10_000,
  ) => store.put({ subject, action, source: "host" }, ttl);

  it("when full, drops expired records first", async () => {
    const clock = new ManualClock();
    const store = new InMemoryZeroTrustActionStore({ clock, maxRecords: 2 });
    await put(store, "user:short", "ALLOW", 10);
    await put(store, "user:long", "ALLOW");
    clock.advance(10);
    await put(store, "user:new", "ALLOW");
    expect((await store.list()).map((r) => r.subject).sort()).toEqual(["user:long", "user:new"]);
  });

  it("when full of live records, evicts the oldest non-BLOCK one, so the blocked list goes last", async () => {
    const clock = new ManualClock();
    const store = new InMemoryZeroTrustActionStore({ clock, maxRecords: 3 });
    await put(store, "user:blocked", "BLOCK");
    await put(store, "user:a", "ALLOW");
    await put(store, "user:b", "ALLOW");
    await put(store, "user:c", "ALLOW");
    expect(await store.get("user:a")).toBeUndefined();
    expect(await store.get("user:blocked")).toBeDefined();
    await put(store, "user:b", "BLOCK");
    await put(store, "user:c", "BLOCK");
    await put(store, "user:d", "ALLOW");
    expect(await store.get("user:blocked")).toBeUndefined();
    expect((await store.list()).map((r) => r.subject).sort()).toEqual(["user:b", "user:c", "user:d"]);
  });

  it("a rewrite of a subject does not evict anyone", async () => {
    const clock = new ManualClock();
    const store = new InMemoryZeroTrustActionStore({ clock, maxRecords: 2 });
    await put(store, "user:a", "ALLOW");
    await put(store, "user:b", "ALLOW");
    await put(store, "user:a", "BLOCK");
    expect((await store.list()).map((r) => r.subject).sort()).toEqual(["user:a", "user:b"]);
  });

  it("refuses a nonsensical maxRecords", () => {
    const clock = new ManualClock();
    for (const maxRecords of [0, 1.5, Number.NaN]) {
      expect(() => new InMemoryZeroTrustActionStore({ clock, maxRecords })).toThrow(/maxRecords/);
    }
  });
});
