import { describe, expect, it } from "vitest";
import { type Clock, ManualClock } from "../../kernel/clock.js";
import type { ZeroTrustAction } from "./zero-trust-action.js";
import type { ZeroTrustActionRecordInput, ZeroTrustActionStore } from "./zero-trust-action-store.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

const input = (
  subject: string,
  action: ZeroTrustAction = "CHALLENGE",
  extra: Partial<ZeroTrustActionRecordInput> = {},
): ZeroTrustActionRecordInput => ({ subject, action, reason: "new network", source: "host", ...extra });

/**
 * The behaviour every ZeroTrustActionStore adapter must show. `factory` returns a fresh, empty store
 * reading time from `clock`, holding at least 1_000 records.
 */
export function describeZeroTrustActionStoreContract(
  name: string,
  factory: (clock: Clock) => Promise<ZeroTrustActionStore> | ZeroTrustActionStore,
): void {
  describe(`ZeroTrustActionStore contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock(50_000);
      return { clock, store: await factory(clock) };
    };

    describe("put and get", () => {
      it("stores at = now, expiresAt = now + ttl, version 1, and gets an equal record", async () => {
        const { clock, store } = await setup();
        const put = await store.put(input("user:u-1"), 1_000);
        expect(put).toEqual({
          subject: "user:u-1",
          action: "CHALLENGE",
          reason: "new network",
          source: "host",
          at: 50_000,
          expiresAt: 51_000,
          version: 1,
        });
        clock.advance(10);
        expect(await store.get("user:u-1")).toEqual(put);
      });

      it("keeps a record without a reason without one", async () => {
        const { store } = await setup();
        const { reason: _, ...noReason } = input("user:u-1", "ALLOW");
        const put = await store.put(noReason, 1_000);
        expect("reason" in put).toBe(false);
        expect(await store.get("user:u-1")).toEqual(put);
      });

      it("replaces the record on a second put and bumps the version", async () => {
        const { clock, store } = await setup();
        await store.put(input("user:u-1"), 1_000);
        clock.advance(100);
        const second = await store.put(
          input("user:u-1", "BLOCK", { source: "admin", reason: "fraud" }),
          5_000,
        );
        expect(second).toMatchObject({
          action: "BLOCK",
          source: "admin",
          at: 50_100,
          expiresAt: 55_100,
          version: 2,
        });
        expect(await store.get("user:u-1")).toEqual(second);
      });

      it("reads nothing for an unknown subject and keeps subjects apart", async () => {
        const { store } = await setup();
        await store.put(input("user:u-1"), 1_000);
        expect(await store.get("user:u-2")).toBeUndefined();
        expect(await store.get("session:u-1")).toBeUndefined();
      });

      it("hands out copies: mutating a returned record changes nothing stored", async () => {
        const { store } = await setup();
        const put = (await store.put(input("user:u-1"), 1_000)) as { action: string };
        put.action = "ALLOW";
        const got = (await store.get("user:u-1")) as { action: string };
        expect(got.action).toBe("CHALLENGE");
        got.action = "ALLOW";
        expect((await store.get("user:u-1"))?.action).toBe("CHALLENGE");
      });

      it("refuses invalid input with VALIDATION_FAILED and stores nothing", async () => {
        const { store } = await setup();
        const bad: [ZeroTrustActionRecordInput, number][] = [
          [input(""), 1_000],
          [input("user:u-1", "BLOK" as ZeroTrustAction), 1_000],
          [input("user:u-1", "ALLOW", { source: "" }), 1_000],
          [input("user:u-1", "ALLOW", { reason: 42 as unknown as string }), 1_000],
          [input("user:u-1"), 0],
          [input("user:u-1"), -5],
          [input("user:u-1"), Number.NaN],
          [input("user:u-1"), Number.POSITIVE_INFINITY],
        ];
        for (const [record, ttl] of bad)
          expect(await codeOf(store.put(record, ttl))).toBe("VALIDATION_FAILED");
        expect(await store.get("user:u-1")).toBeUndefined();
      });
    });

    describe("expiry at read time", () => {
      it("reads a record until just before expiresAt and not from expiresAt on", async () => {
        const { clock, store } = await setup();
        await store.put(input("user:u-1"), 1_000);
        clock.advance(999);
        expect(await store.get("user:u-1")).toBeDefined();
        clock.advance(1);
        expect(await store.get("user:u-1")).toBeUndefined();
        expect(await store.list()).toEqual([]);
        expect(await store.delete("user:u-1")).toBe(false);
      });

      it("starts again at version 1 after the previous record expired", async () => {
        const { clock, store } = await setup();
        await store.put(input("user:u-1"), 1_000);
        await store.put(input("user:u-1"), 1_000);
        clock.advance(1_000);
        expect((await store.put(input("user:u-1"), 1_000)).version).toBe(1);
      });
    });

    describe("delete", () => {
      it("removes a live record and says whether one existed", async () => {
        const { store } = await setup();
        await store.put(input("user:u-1"), 1_000);
        expect(await store.delete("user:u-1")).toBe(true);
        expect(await store.get("user:u-1")).toBeUndefined();
        expect(await store.delete("user:u-1")).toBe(false);
        expect((await store.put(input("user:u-1"), 1_000)).version).toBe(1);
      });
    });

    describe("list", () => {
      it("lists live records newest first, ties by subject, bounded by limit", async () => {
        const { clock, store } = await setup();
        await store.put(input("user:b"), 10_000);
        await store.put(input("user:a"), 10_000);
        clock.advance(5);
        await store.put(input("session:s-1", "BLOCK"), 10_000);
        await store.put(input("user:gone"), 1);
        clock.advance(1);
        expect((await store.list()).map((r) => r.subject)).toEqual(["session:s-1", "user:a", "user:b"]);
        expect((await store.list({ limit: 2 })).map((r) => r.subject)).toEqual(["session:s-1", "user:a"]);
      });

      it("filters by action: the blocked list", async () => {
        const { store } = await setup();
        await store.put(input("user:a", "BLOCK", { source: "admin" }), 10_000);
        await store.put(input("user:b", "ALLOW"), 10_000);
        expect(await store.list({ action: "BLOCK" })).toEqual([await store.get("user:a")]);
      });

      it("returns at most ZERO_TRUST_LIST_DEFAULT_LIMIT (100) by default", async () => {
        const { store } = await setup();
        for (let i = 0; i < 120; i++) await store.put(input(`user:u-${i}`, "ALLOW"), 10_000);
        expect(await store.list()).toHaveLength(100);
        expect(await store.list({ limit: 1_000 })).toHaveLength(120);
      });

      it("refuses a limit outside 1..1000 and an unknown action filter", async () => {
        const { store } = await setup();
        for (const limit of [0, -1, 1.5, 1_001, Number.NaN]) {
          expect(await codeOf(store.list({ limit }))).toBe("VALIDATION_FAILED");
        }
        expect(await codeOf(store.list({ action: "NOPE" as ZeroTrustAction }))).toBe("VALIDATION_FAILED");
      });
    });
  });
}
