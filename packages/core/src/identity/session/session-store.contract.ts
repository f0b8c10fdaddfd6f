import { describe, expect, it } from "vitest";
import { type Clock, ManualClock } from "../../kernel/clock.js";
import { type SessionRecord, type SessionStore, sessionStoreHandle } from "./session-store.js";

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

function record(id: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id,
    data: { user: { name: "alice", authorities: ["ROLE_USER"] }, n: 1 },
    createdAt: T0,
    lastAccessedAt: T0,
    expiresAt: T0 + 30 * MINUTE,
    ...overrides,
  };
}

/**
 * The behaviour every SessionStore adapter must show. `factory` returns a fresh, empty store that
 * reads time from the given clock (a ManualClock the suite moves), so expiry is tested exactly.
 */
export function describeSessionStoreContract(
  name: string,
  factory: (clock: Clock) => Promise<SessionStore> | SessionStore,
): void {
  describe(`SessionStore contract: ${name}`, () => {
    async function setup(): Promise<{ store: SessionStore; clock: ManualClock }> {
      const clock = new ManualClock(T0);
      return { store: await factory(clock), clock };
    }

    it("finds nothing for an unknown id", async () => {
      const { store } = await setup();
      expect(await store.get("no-such-session")).toBeUndefined();
      expect(await store.get("")).toBeUndefined();
    });

    it("returns what was saved, nested data included", async () => {
      const { store } = await setup();
      const saved = record("s1", {
        data: { a: { b: [1, "two", null, true] }, when: 5, flag: false, empty: {} },
      });
      await store.save(saved);
      expect(await store.get("s1")).toEqual(saved);
    });

    it("replaces a session saved under the same id", async () => {
      const { store } = await setup();
      await store.save(record("s1"));
      await store.save(record("s1", { data: { n: 2 }, lastAccessedAt: T0 + 1, expiresAt: T0 + 2 * MINUTE }));
      expect(await store.get("s1")).toEqual(
        record("s1", { data: { n: 2 }, lastAccessedAt: T0 + 1, expiresAt: T0 + 2 * MINUTE }),
      );
    });

    it("hands out copies: changes reach the store only through save", async () => {
      const { store } = await setup();
      const saved = record("s1");
      await store.save(saved);
      saved.data.n = 99;
      const first = await store.get("s1");
      expect(first?.data.n).toBe(1);
      first!.data.n = 42;
      (first!.data.user as { name: string }).name = "mallory";
      expect(await store.get("s1")).toEqual(record("s1"));
    });

    it("keeps two readers of one session apart: neither sees the other's unsaved changes", async () => {
      const { store } = await setup();
      await store.save(record("s1"));
      const a = (await store.get("s1"))!;
      const b = (await store.get("s1"))!;
      const before = (await store.get("s1"))!;
      (a.data.user as { authorities: string[] }).authorities.push("ROLE_ADMIN");
      a.data.n = 2;
      expect(b.data).toEqual(record("s1").data);
      a.data = { replaced: true };
      expect((await store.get("s1"))?.data).toEqual(record("s1").data);
      await store.save(a);
      expect((await store.get("s1"))?.data).toEqual({ replaced: true });
      // What a reader read stays what it read, whether it looked at it before the save or after.
      expect(b.data).toEqual(record("s1").data);
      expect(before.data).toEqual(record("s1").data);
      a.data.replaced = false;
      expect((await store.get("s1"))?.data).toEqual({ replaced: true });
    });

    it("keeps sessions apart", async () => {
      const { store } = await setup();
      await store.save(record("a", { data: { who: "a" } }));
      await store.save(record("b", { data: { who: "b" } }));
      expect((await store.get("a"))?.data).toEqual({ who: "a" });
      expect((await store.get("b"))?.data).toEqual({ who: "b" });
      await store.delete("a");
      expect(await store.get("a")).toBeUndefined();
      expect((await store.get("b"))?.data).toEqual({ who: "b" });
    });

    it("deletes: true when the session existed, false otherwise", async () => {
      const { store } = await setup();
      await store.save(record("s1"));
      expect(await store.delete("s1")).toBe(true);
      expect(await store.get("s1")).toBeUndefined();
      expect(await store.delete("s1")).toBe(false);
      expect(await store.delete("never")).toBe(false);
    });

    it("is live until expiresAt and gone from expiresAt on (checked on read)", async () => {
      const { store, clock } = await setup();
      await store.save(record("s1", { expiresAt: T0 + MINUTE }));
      clock.set(T0 + MINUTE - 1);
      expect(await store.get("s1")).toBeDefined();
      clock.set(T0 + MINUTE);
      expect(await store.get("s1")).toBeUndefined();
      clock.set(T0);
      // Once read as expired it may have been removed; it must never come back as live data.
      const again = await store.get("s1");
      if (again) expect(again.expiresAt).toBe(T0 + MINUTE);
    });

    it("does not return a session saved already expired", async () => {
      const { store } = await setup();
      await store.save(record("s1", { expiresAt: T0 }));
      expect(await store.get("s1")).toBeUndefined();
    });

    describe("touch (when the adapter implements it)", () => {
      it("moves the expiry of a live session and keeps its data", async () => {
        const { store, clock } = await setup();
        if (!store.touch) return;
        await store.save(record("s1", { expiresAt: T0 + MINUTE }));
        clock.set(T0 + MINUTE - 1);
        expect(await store.touch("s1", T0 + MINUTE - 1, T0 + 10 * MINUTE)).toBe(true);
        clock.set(T0 + 5 * MINUTE);
        expect(await store.get("s1")).toEqual(
          record("s1", { lastAccessedAt: T0 + MINUTE - 1, expiresAt: T0 + 10 * MINUTE }),
        );
      });

      it("never overwrites data saved meanwhile", async () => {
        const { store } = await setup();
        if (!store.touch) return;
        await store.save(record("s1"));
        await store.save(record("s1", { data: { changed: true } }));
        await store.touch("s1", T0 + 1, T0 + 40 * MINUTE);
        expect((await store.get("s1"))?.data).toEqual({ changed: true });
      });

      it("neither creates nor revives: false for unknown, deleted and expired sessions", async () => {
        const { store, clock } = await setup();
        if (!store.touch) return;
        expect(await store.touch("ghost", T0, T0 + MINUTE)).toBe(false);
        expect(await store.get("ghost")).toBeUndefined();
        await store.save(record("gone"));
        await store.delete("gone");
        expect(await store.touch("gone", T0, T0 + MINUTE)).toBe(false);
        expect(await store.get("gone")).toBeUndefined();
        await store.save(record("old", { expiresAt: T0 + MINUTE }));
        clock.set(T0 + MINUTE);
        expect(await store.touch("old", T0 + MINUTE, T0 + 31 * MINUTE)).toBe(false);
        expect(await store.get("old")).toBeUndefined();
      });
    });

    describe("update (when the adapter implements it)", () => {
      it("replaces a live session's record: true, and what it wrote is read back", async () => {
        const { store } = await setup();
        if (!store.update) return;
        await store.save(record("s1", { userId: "u-1" }));
        const changed = record("s1", { userId: "u-1", data: { changed: true }, lastAccessedAt: T0 + 1 });
        expect(await store.update(changed)).toBe(true);
        expect(await store.get("s1")).toEqual(changed);
      });

      it("neither creates nor revives: false for unknown, deleted and expired sessions", async () => {
        const { store, clock } = await setup();
        if (!store.update) return;
        expect(await store.update(record("ghost"))).toBe(false);
        expect(await store.get("ghost")).toBeUndefined();
        await store.save(record("gone", { userId: "u-1" }));
        await store.delete("gone");
        expect(await store.update(record("gone", { userId: "u-1" }))).toBe(false);
        expect(await store.get("gone")).toBeUndefined();
        expect(await store.listByUser("u-1")).toEqual([]);
        await store.save(record("old", { expiresAt: T0 + MINUTE }));
        clock.set(T0 + MINUTE);
        expect(await store.update(record("old", { expiresAt: T0 + 31 * MINUTE }))).toBe(false);
        expect(await store.get("old")).toBeUndefined();
      });
    });

    describe("the index by user (listByUser, deleteByUser)", () => {
      it("keeps the user of a session and lists a user's live sessions oldest first, without ids", async () => {
        const { store, clock } = await setup();
        await store.save(record("s-2", { userId: "u-1", createdAt: T0 + 1 }));
        await store.save(record("s-1", { userId: "u-1" }));
        await store.save(record("s-3", { userId: "u-2" }));
        await store.save(record("s-4"));
        await store.save(record("s-5", { userId: "u-1", expiresAt: T0 + MINUTE }));
        expect((await store.get("s-1"))?.userId).toBe("u-1");
        expect((await store.get("s-4"))?.userId).toBeUndefined();
        clock.advance(2 * MINUTE);
        const listed = await store.listByUser("u-1");
        expect(listed.map((s) => s.createdAt)).toEqual([T0, T0 + 1]);
        expect(JSON.stringify(listed)).not.toMatch(/"s-[0-9]"/);
        expect(new Set(listed.map((s) => s.handle)).size).toBe(2);
        expect(await store.listByUser("u-1", 1)).toHaveLength(1);
        expect(await store.listByUser("nobody")).toEqual([]);
      });

      it("deletes every session of one user in one call and no other", async () => {
        const { store } = await setup();
        await store.save(record("s-1", { userId: "u-1" }));
        await store.save(record("s-2", { userId: "u-1" }));
        await store.save(record("s-3", { userId: "u-2" }));
        await store.save(record("s-4"));
        expect(await store.deleteByUser("u-1")).toBe(2);
        expect(await store.get("s-1")).toBeUndefined();
        expect(await store.get("s-2")).toBeUndefined();
        expect(await store.get("s-3")).toBeDefined();
        expect(await store.get("s-4")).toBeDefined();
        expect(await store.listByUser("u-1")).toEqual([]);
        expect(await store.deleteByUser("u-1")).toBe(0);
      });

      it("deletes one session of a user by its handle, never another user's", async () => {
        const { store, clock } = await setup();
        await store.save(record("s-1", { userId: "u-1" }));
        await store.save(record("s-2", { userId: "u-1" }));
        await store.save(record("s-3", { userId: "u-2" }));
        await store.save(record("s-4", { userId: "u-1", expiresAt: T0 + MINUTE }));
        expect(await store.deleteByHandle("u-2", sessionStoreHandle("s-1"))).toBe(false);
        expect(await store.deleteByHandle("u-1", sessionStoreHandle("s-3"))).toBe(false);
        expect(await store.deleteByHandle("u-1", "no-such-handle")).toBe(false);
        expect(await store.deleteByHandle("u-1", sessionStoreHandle("s-1"))).toBe(true);
        expect(await store.get("s-1")).toBeUndefined();
        expect(await store.get("s-2")).toBeDefined();
        expect(await store.get("s-3")).toBeDefined();
        expect(await store.deleteByHandle("u-1", sessionStoreHandle("s-1"))).toBe(false);
        clock.advance(2 * MINUTE);
        expect(await store.deleteByHandle("u-1", sessionStoreHandle("s-4"))).toBe(false);
      });

      it("deletes every session of a user but the kept one, and no other user's", async () => {
        const { store } = await setup();
        for (const id of ["s-1", "s-2", "s-3"]) await store.save(record(id, { userId: "u-1" }));
        await store.save(record("s-4", { userId: "u-2" }));
        await store.save(record("s-5"));
        expect(await store.deleteByUserExcept("u-1", sessionStoreHandle("s-2"))).toBe(2);
        expect(await store.get("s-1")).toBeUndefined();
        expect(await store.get("s-2")).toBeDefined();
        expect(await store.get("s-3")).toBeUndefined();
        expect(await store.get("s-4")).toBeDefined();
        expect(await store.get("s-5")).toBeDefined();
        expect((await store.listByUser("u-1")).map((s) => s.handle)).toEqual([sessionStoreHandle("s-2")]);
        expect(await store.deleteByUserExcept("u-1", sessionStoreHandle("s-2"))).toBe(0);
        expect(await store.deleteByUserExcept("u-1", undefined)).toBe(1);
        expect(await store.get("s-2")).toBeUndefined();
      });

      it("follows a session re-saved under another user, and one deleted alone", async () => {
        const { store } = await setup();
        await store.save(record("s-1", { userId: "u-1" }));
        await store.save(record("s-1", { userId: "u-2" }));
        await store.save(record("s-2", { userId: "u-1" }));
        await store.delete("s-2");
        expect(await store.listByUser("u-1")).toEqual([]);
        expect(await store.listByUser("u-2")).toHaveLength(1);
      });
    });

    describe("getAndTouch (when the adapter implements it)", () => {
      it("returns the live session with its times moved and its data kept, in one step", async () => {
        const { store, clock } = await setup();
        if (!store.getAndTouch) return;
        await store.save(record("s1", { data: { kept: [1, "two"] }, expiresAt: T0 + MINUTE }));
        clock.set(T0 + MINUTE - 1);
        const touched = record("s1", {
          data: { kept: [1, "two"] },
          lastAccessedAt: T0 + MINUTE - 1,
          expiresAt: T0 + 10 * MINUTE,
        });
        expect(await store.getAndTouch("s1", T0 + MINUTE - 1, T0 + 10 * MINUTE)).toEqual(touched);
        clock.set(T0 + 5 * MINUTE);
        expect(await store.get("s1")).toEqual(touched);
      });

      it("neither creates nor revives: undefined for unknown, deleted and expired sessions", async () => {
        const { store, clock } = await setup();
        if (!store.getAndTouch) return;
        expect(await store.getAndTouch("ghost", T0, T0 + MINUTE)).toBeUndefined();
        expect(await store.get("ghost")).toBeUndefined();
        await store.save(record("gone"));
        await store.delete("gone");
        expect(await store.getAndTouch("gone", T0, T0 + MINUTE)).toBeUndefined();
        await store.save(record("old", { expiresAt: T0 + MINUTE }));
        clock.set(T0 + MINUTE);
        expect(await store.getAndTouch("old", T0 + MINUTE, T0 + 31 * MINUTE)).toBeUndefined();
        expect(await store.get("old")).toBeUndefined();
      });

      it("hands back a copy: changing it changes nothing stored until saved", async () => {
        const { store } = await setup();
        if (!store.getAndTouch) return;
        await store.save(record("s1", { data: { n: 1, list: [{ role: "user" }] } }));
        const got = await store.getAndTouch("s1", T0 + 1, T0 + 30 * MINUTE);
        expect(got?.data).toEqual({ n: 1, list: [{ role: "user" }] });
        got!.data.n = 2;
        (got!.data.list as { role: string }[])[0]!.role = "admin";
        expect((await store.get("s1"))?.data).toEqual({ n: 1, list: [{ role: "user" }] });
        const again = await store.getAndTouch("s1", T0 + 2, T0 + 30 * MINUTE);
        expect(again?.data).toEqual({ n: 1, list: [{ role: "user" }] });
      });
    });
  });
}
