import { beforeEach, describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import type { DecisionHistoryRecord, DecisionHistoryStore } from "./decision-history-store.js";

const T0 = Date.UTC(2026, 6, 30, 10, 0, 0);

function record(
  id: string,
  userId: string,
  at: number,
  extra: Partial<DecisionHistoryRecord> = {},
): DecisionHistoryRecord {
  return { id, at, eventId: `evt-${id}`, eventKind: "SIGN_IN_COMPLETED", userId, action: "ALLOW", ...extra };
}

/**
 * The behaviour every DecisionHistoryStore adapter must show. `factory` returns a fresh, empty store.
 */
export function describeDecisionHistoryStoreContract(
  name: string,
  factory: () => DecisionHistoryStore | Promise<DecisionHistoryStore>,
): void {
  describe(`DecisionHistoryStore contract: ${name}`, () => {
    let store: DecisionHistoryStore;
    beforeEach(async () => {
      store = await factory();
    });

    it("answers nothing for a user never recorded", async () => {
      expect(await store.recentFor("nobody", 10)).toEqual([]);
    });

    it("returns a user's records newest first, at most limit, every field kept", async () => {
      const full = record("d1", "u1", T0, {
        subject: "alice",
        method: "GET",
        target: "/api/orders",
        network: "10.0.0.7",
        device: "dev-1",
        riskScore: 0.2,
        confidence: 0.9,
        outcome: "ENFORCED",
      });
      await store.append(full);
      await store.append(record("d2", "u1", T0 + 2_000, { action: "CHALLENGE" }));
      await store.append(record("d3", "u1", T0 + 1_000));
      await store.append(record("x1", "u2", T0 + 5_000));
      expect((await store.recentFor("u1", 10)).map((r) => r.id)).toEqual(["d2", "d3", "d1"]);
      expect((await store.recentFor("u1", 2)).map((r) => r.id)).toEqual(["d2", "d3"]);
      expect((await store.recentFor("u1", 10))[2]).toEqual(full);
    });

    it("orders records of one instant by append, the later first", async () => {
      await store.append(record("a", "u1", T0));
      await store.append(record("b", "u1", T0));
      expect((await store.recentFor("u1", 5)).map((r) => r.id)).toEqual(["b", "a"]);
    });

    it("refuses a second record with one id with CONFLICT", async () => {
      await store.append(record("d1", "u1", T0));
      expect(await codeOf(store.append(record("d1", "u2", T0)))).toBe("CONFLICT");
      expect(await store.recentFor("u2", 5)).toEqual([]);
    });

    it("refuses a bad record and a bad limit with VALIDATION_FAILED", async () => {
      const bad = { ...record("d1", "u1", T0), riskScore: 2 };
      expect(await codeOf(store.append(bad))).toBe("VALIDATION_FAILED");
      expect(await codeOf(store.append(record("", "u1", T0)))).toBe("VALIDATION_FAILED");
      for (const limit of [0, 257, 1.5]) {
        expect(await codeOf(store.recentFor("u1", limit))).toBe("VALIDATION_FAILED");
      }
    });

    it("returns copies: changing an answer changes nothing stored", async () => {
      await store.append(record("d1", "u1", T0));
      const [first] = await store.recentFor("u1", 1);
      (first as { action: string }).action = "BLOCK";
      expect((await store.recentFor("u1", 1))[0]?.action).toBe("ALLOW");
    });
  });
}
