import { describe, expect, it } from "vitest";
import { describeDecisionHistoryStoreContract } from "./decision-history-store.contract.js";
import { InMemoryDecisionHistoryStore } from "./in-memory-decision-history-store.js";

describeDecisionHistoryStoreContract(
  "InMemoryDecisionHistoryStore",
  () => new InMemoryDecisionHistoryStore(),
);

describe("InMemoryDecisionHistoryStore bounds", () => {
  const rec = (id: string, userId: string, at: number) => ({
    id,
    at,
    eventId: `e-${id}`,
    eventKind: "REQUEST_SAMPLED",
    userId,
    action: "ALLOW",
  });

  it("keeps the most recent perUser records of a user", async () => {
    const store = new InMemoryDecisionHistoryStore({ perUser: 2 });
    for (const [i, id] of ["a", "b", "c"].entries()) await store.append(rec(id, "u1", i));
    expect((await store.recentFor("u1", 10)).map((r) => r.id)).toEqual(["c", "b"]);
  });

  it("drops the least recently written user past maxUsers", async () => {
    const store = new InMemoryDecisionHistoryStore({ maxUsers: 2 });
    await store.append(rec("a", "u1", 1));
    await store.append(rec("b", "u2", 2));
    await store.append(rec("c", "u1", 3));
    await store.append(rec("d", "u3", 4));
    expect(await store.recentFor("u2", 5)).toEqual([]);
    expect((await store.recentFor("u1", 5)).map((r) => r.id)).toEqual(["c", "a"]);
  });
});
