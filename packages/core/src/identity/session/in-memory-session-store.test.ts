import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { DEFAULT_MAX_SESSIONS, InMemorySessionStore } from "./in-memory-session-store.js";
import type { SessionRecord } from "./session-store.js";
import { describeSessionStoreContract } from "./session-store.contract.js";
import { sessionDataToRead } from "./shared-session-record.js";

describeSessionStoreContract("InMemorySessionStore", (clock) => new InMemorySessionStore({ clock }));

const T0 = Date.UTC(2026, 0, 1);

function record(id: string, expiresAt = T0 + 60_000): SessionRecord {
  return { id, data: {}, createdAt: T0, lastAccessedAt: T0, expiresAt };
}

describe("InMemorySessionStore", () => {
  it("defaults to 100_000 sessions and refuses a bound that is not a positive integer", () => {
    expect(DEFAULT_MAX_SESSIONS).toBe(100_000);
    for (const maxSessions of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      let code = "none";
      try {
        new InMemorySessionStore({ clock: new ManualClock(), maxSessions });
      } catch (e) {
        code = isPlatformError(e) ? e.code : "other";
      }
      expect(code, String(maxSessions)).toBe("CONFIGURATION_INVALID");
    }
  });

  it("evicts the least recently used session when full (reads count as use)", async () => {
    const store = new InMemorySessionStore({ clock: new ManualClock(T0), maxSessions: 3 });
    await store.save(record("a"));
    await store.save(record("b"));
    await store.save(record("c"));
    await store.get("a"); // a is now the most recently used; b the least
    await store.save(record("d"));
    expect(store.size).toBe(3);
    expect(await store.get("b")).toBeUndefined();
    expect(await store.get("a")).toBeDefined();
    expect(await store.get("c")).toBeDefined();
    expect(await store.get("d")).toBeDefined();
  });

  it("keeps the order exact when the most recently used session is read again (no move needed)", async () => {
    const store = new InMemorySessionStore({ clock: new ManualClock(T0), maxSessions: 3 });
    await store.save(record("a"));
    await store.save(record("b"));
    await store.save(record("c"));
    for (let i = 0; i < 5; i++) await store.getAndTouch("c", T0 + i, T0 + 60_000); // c stays the newest
    await store.get("a"); // a, then c again: b is the least recently used
    await store.get("c");
    await store.delete("c"); // the newest gone: the next read moves as usual
    await store.get("b"); // order: a, b
    await store.save(record("d"));
    await store.save(record("e")); // full: a goes
    expect(await store.get("a")).toBeUndefined();
    expect(await store.get("b")).toBeDefined();
    expect(store.size).toBe(3);
  });

  it("stays bounded under a flood of new sessions", async () => {
    const store = new InMemorySessionStore({ clock: new ManualClock(T0), maxSessions: 100 });
    await store.save(record("keeper"));
    for (let i = 0; i < 1_000; i++) {
      await store.save(record(`flood-${i}`));
      if (i % 50 === 0) await store.get("keeper"); // a signed-in user who keeps using the site
    }
    expect(store.size).toBe(100);
    expect(await store.get("keeper")).toBeDefined();
    expect(await store.get("flood-0")).toBeUndefined();
  });

  it("purges expired sessions and reports how many went", async () => {
    const clock = new ManualClock(T0);
    const store = new InMemorySessionStore({ clock });
    await store.save(record("short", T0 + 1_000));
    await store.save(record("long", T0 + 10_000));
    expect(store.purgeExpired()).toBe(0);
    clock.set(T0 + 1_000);
    expect(store.purgeExpired()).toBe(1);
    expect(store.size).toBe(1);
    expect(await store.get("long")).toBeDefined();
  });

  it("shares a session's frozen plain data with its readers, copying it only for one that asks for data", async () => {
    const store = new InMemorySessionStore({ clock: new ManualClock(T0) });
    const ctx = { userId: "u1", authorities: ["ROLE_USER"] };
    await store.save({ ...record("s"), data: { ctx } });
    ctx.authorities.push("ROLE_ADMIN"); // the saver's own object: changing it after save changes nothing
    const a = (await store.getAndTouch("s", T0 + 1, T0 + 60_000))!;
    const b = (await store.get("s"))!;
    const shared = sessionDataToRead(a);
    expect(sessionDataToRead(b)).toBe(shared);
    expect(shared).toEqual({ ctx: { userId: "u1", authorities: ["ROLE_USER"] } });
    expect(() => (shared.ctx as { authorities: string[] }).authorities.push("ROLE_ADMIN")).toThrow(TypeError);
    const own = a.data;
    expect(own).not.toBe(shared);
    expect(own).toEqual(shared);
    (own.ctx as { authorities: string[] }).authorities.push("ROLE_ADMIN");
    expect(sessionDataToRead(a)).toBe(own); // from now on a reads its own copy, unsaved change included
    expect(sessionDataToRead(b)).toBe(shared);
    await store.save(a);
    const after = sessionDataToRead((await store.get("s"))!);
    expect(after).toEqual({ ctx: { userId: "u1", authorities: ["ROLE_USER", "ROLE_ADMIN"] } });
    expect(after).not.toBe(own);
    expect(Object.isFrozen(after.ctx)).toBe(true);
    expect(sessionDataToRead(b)).toEqual({ ctx: { userId: "u1", authorities: ["ROLE_USER"] } });
  });

  it("answers records that look like any other: data is an own property, spread and cloned with the rest", async () => {
    const store = new InMemorySessionStore({ clock: new ManualClock(T0) });
    await store.save({ ...record("s"), userId: "u1", data: { n: 1 } });
    const read = (await store.getAndTouch("s", T0 + 1, T0 + 60_000))!;
    expect(Object.keys(read).sort()).toEqual([
      "createdAt",
      "data",
      "expiresAt",
      "id",
      "lastAccessedAt",
      "userId",
    ]);
    const plain = { ...record("s"), userId: "u1", data: { n: 1 }, lastAccessedAt: T0 + 1 };
    expect({ ...read }).toStrictEqual(plain);
    expect(structuredClone(read)).toStrictEqual(plain);
    expect(JSON.parse(JSON.stringify(read))).toStrictEqual(plain);
    await store.save(record("anonymous"));
    expect("userId" in (await store.get("anonymous"))!).toBe(false);
  });

  it("copies data that is not plain on every read (a Date stays changeable, so it is never shared)", async () => {
    const store = new InMemorySessionStore({ clock: new ManualClock(T0) });
    await store.save({ ...record("s"), data: { when: new Date(5) } });
    const a = (await store.get("s"))!;
    const b = (await store.getAndTouch("s", T0 + 1, T0 + 60_000))!;
    expect(sessionDataToRead(a)).not.toBe(sessionDataToRead(b));
    (sessionDataToRead(a).when as Date).setTime(9);
    expect((b.data.when as Date).getTime()).toBe(5);
    expect(((await store.get("s"))!.data.when as Date).getTime()).toBe(5);
  });

  it("drops an expired session when it is read", async () => {
    const clock = new ManualClock(T0);
    const store = new InMemorySessionStore({ clock });
    await store.save(record("s", T0 + 1));
    clock.advance(1);
    expect(await store.get("s")).toBeUndefined();
    expect(store.size).toBe(0);
  });
});
