import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { InMemorySessionStore } from "./in-memory-session-store.js";
import { requiredSessionMethods } from "./session-store.fixture.js";
import { SessionManager, type SessionManagerOptions } from "./session-manager.js";
import type { SessionStore } from "./session-store.js";

const MINUTE = 60_000;

function setup(options: Partial<SessionManagerOptions> = {}) {
  const clock = new ManualClock();
  const store = new InMemorySessionStore({ clock });
  const manager = new SessionManager({ store, clock, ids: new CryptoIdGenerator(), ...options });
  return { clock, store, manager };
}

function exchange(cookie?: string, secure = false): HttpExchange {
  return new HttpExchange({
    method: "GET",
    url: "/",
    headers: { cookie },
    remoteAddress: "127.0.0.1",
    secure,
  });
}

function sessionCookie(ex: HttpExchange, name = "PLATFORM_SESSION") {
  return ex.response.cookies.find((c) => c.name === name);
}

describe("SessionManager", () => {
  it("has no session and sets no cookie for a request without one", async () => {
    const { manager } = setup();
    const ex = exchange();
    expect(await manager.current(ex)).toBeUndefined();
    expect(await manager.getValue(ex, "x")).toBeUndefined();
    await manager.save(ex);
    await manager.removeValue(ex, "x");
    expect(ex.response.cookies).toEqual([]);
  });

  it("creates a session with a 256-bit id and an HttpOnly, SameSite=Lax, Path=/ cookie", async () => {
    const { manager, store, clock } = setup();
    const ex = exchange();
    const session = await manager.getOrCreate(ex);
    expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session).toMatchObject({
      data: {},
      createdAt: clock.now(),
      lastAccessedAt: clock.now(),
      expiresAt: clock.now() + 30 * MINUTE,
    });
    expect(sessionCookie(ex)).toEqual({
      name: "PLATFORM_SESSION",
      value: session.id,
      path: "/",
      httpOnly: true,
      secure: false,
      sameSite: "Lax",
    });
    expect(await store.get(session.id)).toEqual(session);
    expect(await manager.getOrCreate(ex)).toBe(session);
  });

  it("marks the cookie Secure over https and honours cookieName and sameSite", async () => {
    const { manager } = setup({ cookieName: "SID", sameSite: "Strict" });
    const ex = exchange(undefined, true);
    await manager.getOrCreate(ex);
    expect(sessionCookie(ex, "SID")).toMatchObject({ secure: true, sameSite: "Strict", httpOnly: true });
  });

  it("loads the session from the cookie on a later request, once per request", async () => {
    const { manager, store } = setup();
    const first = exchange();
    await manager.setValue(first, "theme", "dark");
    const id = sessionCookie(first)!.value;

    let reads = 0;
    const counting: SessionStore = {
      ...requiredSessionMethods(store),
      get: (i) => {
        reads++;
        return store.get(i);
      },
    };
    const clock = new ManualClock();
    const m2 = new SessionManager({ store: counting, clock, ids: new CryptoIdGenerator() });
    const second = exchange(`PLATFORM_SESSION=${id}`);
    const [a, b] = await Promise.all([m2.current(second), m2.current(second)]);
    expect(a).toBe(b);
    expect(await m2.getValue(second, "theme")).toBe("dark");
    expect(reads).toBe(1);
    expect(second.response.cookies).toEqual([]);
  });

  it("touches the session on each request, so an active user stays signed in", async () => {
    const { manager, clock, store } = setup();
    const ex = exchange();
    const id = (await manager.getOrCreate(ex)).id;
    for (let i = 0; i < 5; i++) {
      clock.advance(20 * MINUTE);
      const later = exchange(`PLATFORM_SESSION=${id}`);
      const session = await manager.current(later);
      expect(session?.id).toBe(id);
      expect(session?.lastAccessedAt).toBe(clock.now());
      expect((await store.get(id))?.expiresAt).toBe(clock.now() + 30 * MINUTE);
    }
  });

  it("touches through save when the store has no touch", async () => {
    const { manager, clock, store } = setup();
    const id = (await manager.getOrCreate(exchange())).id;
    const plain: SessionStore = {
      ...requiredSessionMethods(store),
    };
    const m2 = new SessionManager({ store: plain, clock, ids: new CryptoIdGenerator() });
    clock.advance(20 * MINUTE);
    await m2.current(exchange(`PLATFORM_SESSION=${id}`));
    expect((await store.get(id))?.expiresAt).toBe(clock.now() + 30 * MINUTE);
  });

  it("ends an idle session after the timeout", async () => {
    const { manager, clock } = setup({ idleTimeoutMs: 5 * MINUTE });
    const id = (await manager.getOrCreate(exchange())).id;
    clock.advance(5 * MINUTE);
    const late = exchange(`PLATFORM_SESSION=${id}`);
    expect(await manager.current(late)).toBeUndefined();
    expect(sessionCookie(late)).toMatchObject({ value: "", maxAge: 0 });
  });

  it("persists data with save and the value helpers", async () => {
    const { manager, store } = setup();
    const ex = exchange();
    await manager.setValue(ex, "a", 1);
    const session = await manager.getOrCreate(ex);
    session.data.b = { nested: true };
    expect((await store.get(session.id))?.data).toEqual({ a: 1 });
    await manager.save(ex);
    expect((await store.get(session.id))?.data).toEqual({ a: 1, b: { nested: true } });
    await manager.removeValue(ex, "a");
    await manager.setValue(ex, "b", undefined);
    expect((await store.get(session.id))?.data).toEqual({});
    expect(await manager.getValue(ex, "toString")).toBeUndefined();
  });

  it("rotates: new id, same data, old id gone, cookie re-set", async () => {
    const { manager, store, clock } = setup();
    const ex = exchange();
    await manager.setValue(ex, "cart", ["book"]);
    const old = await manager.getOrCreate(ex);
    clock.advance(MINUTE);
    const fresh = await manager.rotate(ex);
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.data).toEqual({ cart: ["book"] });
    expect(fresh.createdAt).toBe(old.createdAt);
    expect(fresh.lastAccessedAt).toBe(clock.now());
    expect(await store.get(old.id)).toBeUndefined();
    expect(await store.get(fresh.id)).toEqual(fresh);
    expect(sessionCookie(ex)?.value).toBe(fresh.id);
    expect(await manager.current(ex)).toBe(fresh);
  });

  it("rotate without a session creates one", async () => {
    const { manager, store } = setup();
    const ex = exchange();
    const fresh = await manager.rotate(ex);
    expect(await store.get(fresh.id)).toBeDefined();
    expect(sessionCookie(ex)?.value).toBe(fresh.id);
  });

  it("invalidates: deletes the session and clears the cookie with Max-Age 0", async () => {
    const { manager, store } = setup();
    const id = (await manager.getOrCreate(exchange())).id;
    const ex = exchange(`PLATFORM_SESSION=${id}`);
    await manager.invalidate(ex);
    expect(await store.get(id)).toBeUndefined();
    expect(await manager.current(ex)).toBeUndefined();
    expect(sessionCookie(ex)).toMatchObject({ value: "", maxAge: 0, path: "/", httpOnly: true });
    const next = await manager.getOrCreate(ex);
    expect(next.id).not.toBe(id);
  });

  it("refuses invalid configuration", () => {
    for (const bad of [
      { cookieName: "" },
      { cookieName: "a b" },
      { cookieName: "a;b" },
      { idleTimeoutMs: 0 },
      { idleTimeoutMs: Number.NaN },
      { sameSite: "none" as "None" },
    ]) {
      let code = "none";
      try {
        setup(bad);
      } catch (e) {
        code = isPlatformError(e) ? e.code : "other";
      }
      expect(code, JSON.stringify(bad)).toBe("CONFIGURATION_INVALID");
    }
  });
});

describe("SessionManager: absolute lifetime and the user index", () => {
  it("ends a busy session at its max lifetime, counted from the sign-in's rotation", async () => {
    const { manager, clock, store } = setup({ idleTimeoutMs: 30 * MINUTE, maxLifetimeMs: 60 * MINUTE });
    const first = exchange();
    await manager.getOrCreate(first);
    clock.advance(50 * MINUTE); // an anonymous session, kept busy
    let cookie = `PLATFORM_SESSION=${sessionCookie(first)!.value}`;
    const signIn = exchange(cookie);
    const signedIn = await manager.rotate(signIn, "user-1");
    expect(signedIn.userId).toBe("user-1");
    expect(signedIn.createdAt).toBe(clock.now());
    expect((await store.listByUser("user-1")).length).toBe(1);
    cookie = `PLATFORM_SESSION=${sessionCookie(signIn)!.value}`;
    for (let minutes = 0; minutes < 50; minutes += 10) {
      clock.advance(10 * MINUTE); // never idle for long
      expect(await manager.current(exchange(cookie))).toBeDefined();
    }
    clock.advance(15 * MINUTE); // 65 minutes since sign-in
    const late = exchange(cookie);
    expect(await manager.current(late)).toBeUndefined();
    expect(sessionCookie(late)).toMatchObject({ value: "", maxAge: 0 });
    expect(await store.listByUser("user-1")).toEqual([]);
  });

  it("does not restart the lifetime when the same user signs in again on the session (a step-up)", async () => {
    const { manager, clock } = setup();
    const ex = exchange();
    const first = await manager.rotate(ex, "user-1");
    clock.advance(60 * MINUTE);
    const stepUp = await manager.rotate(ex, "user-1");
    expect(stepUp.createdAt).toBe(first.createdAt);
    const other = await manager.rotate(ex, "user-2");
    expect(other.createdAt).toBe(clock.now());
  });

  it("keeps the user across a later rotation without a user, and refuses a bad lifetime", async () => {
    const { manager } = setup();
    const ex = exchange();
    await manager.rotate(ex, "user-1");
    const again = await manager.rotate(ex);
    expect(again.userId).toBe("user-1");
    expect(() => setup({ maxLifetimeMs: 0 })).toThrow(/max lifetime/);
  });

  it("reads a value through `accept`: one it refuses reads as undefined", async () => {
    const { manager } = setup();
    const first = exchange();
    await manager.setValue(first, "theme", "dark");
    const later = exchange(`PLATFORM_SESSION=${sessionCookie(first)!.value}`);
    const isString = (v: unknown): v is string => typeof v === "string";
    const isNumber = (v: unknown): v is number => typeof v === "number";
    expect(await manager.getValue(later, "theme", isString)).toBe("dark");
    expect(await manager.getValue(later, "theme", isNumber)).toBeUndefined();
    expect(await manager.getValue(later, "missing", (v): v is undefined => v === undefined)).toBeUndefined();
    expect(await manager.getValue(exchange(), "theme", isString)).toBeUndefined();
  });

  it("answers a request without a cookie without asking the store", async () => {
    const asked: string[] = [];
    const refusing = new Proxy({} as SessionStore, {
      get: (_target, name) => () => {
        asked.push(String(name));
        throw new Error("the store was asked");
      },
    });
    const manager = new SessionManager({
      store: refusing,
      clock: new ManualClock(),
      ids: new CryptoIdGenerator(),
    });
    const ex = exchange();
    expect(await manager.getValue(ex, "x")).toBeUndefined();
    expect(await manager.current(ex)).toBeUndefined();
    expect(
      await manager.getValue(exchange("other=1"), "x", (v): v is string => typeof v === "string"),
    ).toBeUndefined();
    expect(asked).toEqual([]);
    expect(ex.response.cookies).toEqual([]);
  });

  it("answers a rejection, once per request, when the store throws instead of rejecting", async () => {
    const { store } = setup();
    let calls = 0;
    const throwing: SessionStore = {
      ...requiredSessionMethods(store),
      getAndTouch: () => {
        calls++;
        throw new Error("database down");
      },
    };
    const manager = new SessionManager({
      store: throwing,
      clock: new ManualClock(),
      ids: new CryptoIdGenerator(),
    });
    const ex = exchange("PLATFORM_SESSION=some-session-id");
    const pending = manager.current(ex);
    await expect(pending).rejects.toThrow("database down");
    await expect(manager.getValue(ex, "x")).rejects.toThrow("database down");
    expect(manager.current(ex)).toBe(pending);
    expect(calls).toBe(1);
  });

  it("takes a store's null as a session that is gone (cookie cleared), as before", async () => {
    const { store } = setup();
    const nulling: SessionStore = {
      ...requiredSessionMethods(store),
      getAndTouch: async () => null as unknown as undefined,
    };
    const manager = new SessionManager({
      store: nulling,
      clock: new ManualClock(),
      ids: new CryptoIdGenerator(),
    });
    const ex = exchange("PLATFORM_SESSION=some-session-id");
    expect(await manager.current(ex)).toBeUndefined();
    expect(await manager.getValue(ex, "x")).toBeUndefined();
    expect(sessionCookie(ex)).toEqual(expect.objectContaining({ value: "", maxAge: 0 }));
  });
});

describe("SessionManager: the request's session, known once loaded (currentOrPending)", () => {
  async function signedIn() {
    const s = setup();
    const first = exchange();
    await s.manager.setValue(first, "theme", "dark");
    return { ...s, cookie: `PLATFORM_SESSION=${sessionCookie(first)!.value}` };
  }

  it("knows the session at once from a store that answers at once (in memory): no promise", async () => {
    const { manager, cookie } = await signedIn();
    const ex = exchange(cookie);
    const known = manager.currentOrPending(ex);
    expect(known).not.toBeInstanceOf(Promise);
    expect(known).toMatchObject({ data: { theme: "dark" } });
    expect(manager.currentOrPending(ex)).toBe(known);
    // `current` still answers a promise, one per request, of the same record.
    const pending = manager.current(ex);
    expect(pending).toBe(manager.current(ex));
    expect(await pending).toBe(known);
    expect(await manager.getValue(ex, "theme")).toBe("dark");
    expect(manager.currentOrPending(exchange())).toBeUndefined();
  });

  it("answers a promise while a store's promise is pending, then the record itself (one store read)", async () => {
    const { store, cookie } = await signedIn();
    let reads = 0;
    const promising: SessionStore = {
      ...requiredSessionMethods(store),
      getAndTouch: async (...args) => {
        reads++;
        return store.getAndTouch(...args);
      },
    };
    const manager = new SessionManager({
      store: promising,
      clock: new ManualClock(),
      ids: new CryptoIdGenerator(),
    });
    const ex = exchange(cookie);
    const pending = manager.currentOrPending(ex);
    expect(pending).toBeInstanceOf(Promise);
    const session = await pending;
    expect(session).toMatchObject({ data: { theme: "dark" } });
    expect(manager.currentOrPending(ex)).toBe(session);
    expect(await manager.getValue(ex, "theme")).toBe("dark");
    expect(reads).toBe(1);
  });

  it("knows no session once the request ended it, or once the cookie names a gone one (cookie cleared)", async () => {
    const { manager, store, cookie } = await signedIn();
    const ex = exchange(cookie);
    expect(manager.currentOrPending(ex)).toBeDefined();
    await manager.invalidate(ex);
    expect(manager.currentOrPending(ex)).toBeUndefined();
    expect(await manager.getValue(ex, "theme")).toBeUndefined();
    const gone = exchange(cookie);
    expect(manager.currentOrPending(gone)).toBeUndefined();
    expect(sessionCookie(gone)).toMatchObject({ value: "", maxAge: 0 });
    expect(store.size).toBe(0);
  });

  it("knows a session it just began, and one past its absolute lifetime only through the promise (deleted)", async () => {
    const { manager, clock, store } = setup({ maxLifetimeMs: 60 * MINUTE, idleTimeoutMs: 50 * MINUTE });
    const first = exchange();
    const begun = await manager.getOrCreate(first);
    expect(manager.currentOrPending(first)).toBe(begun);
    const cookie = `PLATFORM_SESSION=${begun.id}`;
    clock.advance(40 * MINUTE);
    expect(manager.currentOrPending(exchange(cookie))).toBeDefined();
    clock.advance(30 * MINUTE); // 70 minutes since it began, 30 since its last use
    const late = exchange(cookie);
    const pending = manager.currentOrPending(late);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toBeUndefined();
    expect(sessionCookie(late)).toMatchObject({ value: "", maxAge: 0 });
    expect(store.size).toBe(0);
  });
});
