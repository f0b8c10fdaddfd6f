import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { Escalation } from "./escalation.js";
import { describeEscalationStoreContract } from "./escalation-store.contract.js";
import { InMemoryEscalationStore } from "./in-memory-escalation-store.js";

describeEscalationStoreContract("InMemoryEscalationStore", (clock) => new InMemoryEscalationStore({ clock }));

const pending = (id: string, now: number): Escalation => ({
  id,
  userId: "u-1",
  username: "alice",
  primary: {
    userId: "u-1",
    username: "alice",
    authorities: [],
    method: "form",
    authenticatedAt: 0,
    factors: [],
  },
  flowTypeName: "mfa",
  reason: "r",
  status: "PENDING",
  createdAt: now,
  expiresAt: now + 1_000,
  callerBinding: "b",
  remoteAddress: "127.0.0.1",
  version: 1,
});

describe("InMemoryEscalationStore", () => {
  it("evicts the oldest created escalation beyond maxEscalations (default 10k)", async () => {
    const clock = new ManualClock();
    const store = new InMemoryEscalationStore({ clock, maxEscalations: 2 });
    await store.create(pending("a", clock.now()));
    await store.create(pending("b", clock.now()));
    await store.create(pending("c", clock.now()));
    expect(await store.find("a")).toBeUndefined();
    expect((await store.listPending()).map((e) => e.id)).toEqual(["b", "c"]);
  });

  it("keeps an escalation retentionMs past expiresAt, then forgets it", async () => {
    const clock = new ManualClock();
    const store = new InMemoryEscalationStore({ clock, retentionMs: 500 });
    await store.create(pending("a", clock.now()));
    clock.advance(1_499);
    expect((await store.find("a"))?.status).toBe("EXPIRED");
    clock.advance(1);
    expect(await store.find("a")).toBeUndefined();
    expect((await store.create(pending("a", clock.now()))).status).toBe("PENDING");
  });

  it("refuses nonsensical options", () => {
    const clock = new ManualClock();
    expect(() => new InMemoryEscalationStore({ clock, maxEscalations: 0 })).toThrow(/maxEscalations/);
    expect(() => new InMemoryEscalationStore({ clock, retentionMs: Number.NaN })).toThrow(/retentionMs/);
  });
});
