import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { InMemorySessionStore } from "./in-memory-session-store.js";
import { requiredSessionMethods } from "./session-store.fixture.js";
import { SessionManager } from "./session-manager.js";
import type { SessionStore } from "./session-store.js";

const MINUTE = 60_000;

function setup() {
  const clock = new ManualClock();
  const store = new InMemorySessionStore({ clock });
  const manager = new SessionManager({ store, clock, ids: new CryptoIdGenerator() });
  return { clock, store, manager };
}

function exchange(cookie?: string): HttpExchange {
  return new HttpExchange({ method: "GET", url: "/", headers: { cookie }, remoteAddress: "10.0.0.1" });
}

function setCookieValue(ex: HttpExchange): string | undefined {
  return ex.response.cookies.find((c) => c.name === "PLATFORM_SESSION")?.value;
}

describe("SessionManager security", () => {
  it("never adopts a planted session id (fixation): a new, different id is minted", async () => {
    const { manager, store } = setup();
    const planted = "attacker-chosen-id-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const ex = exchange(`PLATFORM_SESSION=${planted}`);
    expect(await manager.current(ex)).toBeUndefined();
    const session = await manager.getOrCreate(ex);
    expect(session.id).not.toBe(planted);
    expect(setCookieValue(ex)).toBe(session.id);
    expect(await store.get(planted)).toBeUndefined();
  });

  it("clears the cookie of an unknown id instead of keeping it around", async () => {
    const { manager } = setup();
    const ex = exchange("PLATFORM_SESSION=unknown");
    await manager.current(ex);
    expect(ex.response.cookies).toEqual([expect.objectContaining({ value: "", maxAge: 0 })]);
  });

  it("does not look up absurdly long ids, and ignores empty ones", async () => {
    const { clock, store } = setup();
    const looked: string[] = [];
    const spying: SessionStore = {
      ...requiredSessionMethods(store),
      get: (id) => {
        looked.push(id);
        return store.get(id);
      },
    };
    const manager = new SessionManager({ store: spying, clock, ids: new CryptoIdGenerator() });
    for (const id of ["", "x".repeat(10_000)]) {
      const ex = exchange(`PLATFORM_SESSION=${id}`);
      expect(await manager.current(ex)).toBeUndefined();
      expect(setCookieValue(ex)).toBe("");
    }
    expect(looked).toEqual([]);
  });

  it("after rotate the old id is dead: the attacker who knew it gets nothing", async () => {
    const { manager } = setup();
    const anonymous = exchange();
    await manager.getOrCreate(anonymous);
    const knownToAttacker = setCookieValue(anonymous)!;
    const login = exchange(`PLATFORM_SESSION=${knownToAttacker}`);
    const rotated = await manager.rotate(login);
    await manager.setValue(login, "user", "alice");
    const attacker = exchange(`PLATFORM_SESSION=${knownToAttacker}`);
    expect(await manager.current(attacker)).toBeUndefined();
    const victim = exchange(`PLATFORM_SESSION=${rotated.id}`);
    expect(await manager.getValue(victim, "user")).toBe("alice");
  });

  it("a request that loaded the old id while rotate ran cannot revive it", async () => {
    const { clock, store, manager } = setup();
    const id = (await manager.getOrCreate(exchange())).id;
    const login = exchange(`PLATFORM_SESSION=${id}`);
    let interleave: (() => Promise<unknown>) | undefined;
    const racing: SessionStore = {
      ...requiredSessionMethods(store),
      get: async (i) => {
        const found = await store.get(i);
        const run = interleave;
        interleave = undefined;
        if (run) await run(); // the login's rotate completes between this read and the touch
        return found;
      },
      touch: (i, at, until) => store.touch(i, at, until),
    };
    const straggling = new SessionManager({ store: racing, clock, ids: new CryptoIdGenerator() });
    interleave = () => manager.rotate(login);
    const straggler = exchange(`PLATFORM_SESSION=${id}`);
    expect(await straggling.current(straggler)).toBeUndefined();
    expect(await store.get(id)).toBeUndefined();
  });

  it("an expired session is ignored and cleared, and is not brought back", async () => {
    const { manager, clock } = setup();
    const ex0 = exchange();
    await manager.setValue(ex0, "user", "alice");
    const id = setCookieValue(ex0)!;
    clock.advance(30 * MINUTE);
    const late = exchange(`PLATFORM_SESSION=${id}`);
    expect(await manager.getValue(late, "user")).toBeUndefined();
    expect(setCookieValue(late)).toBe("");
    const fresh = await manager.getOrCreate(late);
    expect(fresh.id).not.toBe(id);
    expect(fresh.data).toEqual({});
    clock.set(clock.now() - 60 * MINUTE);
    expect(await manager.current(exchange(`PLATFORM_SESSION=${id}`))).toBeUndefined();
  });

  it("after invalidate (logout) the id is refused", async () => {
    const { manager } = setup();
    const ex0 = exchange();
    await manager.setValue(ex0, "user", "alice");
    const id = setCookieValue(ex0)!;
    await manager.invalidate(exchange(`PLATFORM_SESSION=${id}`));
    expect(await manager.current(exchange(`PLATFORM_SESSION=${id}`))).toBeUndefined();
  });

  it("a mutation of the request's copy is not visible to others until saved", async () => {
    const { manager } = setup();
    const ex0 = exchange();
    const id = (await manager.getOrCreate(ex0)).id;
    const a = await manager.current(exchange(`PLATFORM_SESSION=${id}`));
    a!.data.user = "mallory";
    expect(await manager.getValue(exchange(`PLATFORM_SESSION=${id}`), "user")).toBeUndefined();
  });

  it("two requests of one session never see each other's unsaved writes, and a value read is never changed in place", async () => {
    const { manager } = setup();
    const first = exchange();
    await manager.setValue(first, "profile", { name: "alice", roles: ["user"] });
    const id = setCookieValue(first)!;
    const a = exchange(`PLATFORM_SESSION=${id}`);
    const b = exchange(`PLATFORM_SESSION=${id}`);
    const read = (await manager.getValue(a, "profile")) as { roles: string[] };
    // The in-memory store shares its frozen data with every request: a change in place throws.
    expect(() => read.roles.push("admin")).toThrow(TypeError);
    const mine = (await manager.current(a))!;
    (mine.data.profile as { roles: string[] }).roles.push("admin");
    mine.data.extra = "unsaved";
    expect(await manager.getValue(a, "profile")).toEqual({ name: "alice", roles: ["user", "admin"] });
    expect(await manager.getValue(b, "profile")).toEqual({ name: "alice", roles: ["user"] });
    expect(await manager.getValue(b, "extra")).toBeUndefined();
    expect(await manager.getValue(exchange(`PLATFORM_SESSION=${id}`), "extra")).toBeUndefined();
    await manager.save(a);
    const c = exchange(`PLATFORM_SESSION=${id}`);
    expect(await manager.getValue(c, "profile")).toEqual({ name: "alice", roles: ["user", "admin"] });
    expect(await manager.getValue(c, "extra")).toBe("unsaved");
    // b read before the save and keeps what it read (as a database's document read earlier would).
    expect(await manager.getValue(b, "profile")).toEqual({ name: "alice", roles: ["user"] });
  });
});

describe("SessionManager security: a request in flight when its session ends (attack, wave 3 session 10)", () => {
  // Found by an outside attack (Medium, older than the session): `save` is an upsert, so a request of
  // the session that loaded it before a logout (or an "end this session", or a rotation) and wrote
  // it after brought it back, signed in, under the id that was ended. Over HTTP: a stolen cookie's
  // slow form POST (its body dripped) to /account/sessions/end-others, the victim logs out, the body
  // completes: the stolen cookie answered 200 at /api/me again. Writes now go through
  // `SessionStore.update`, which only replaces a live session.
  it("a write by a request that loaded the session before logout does not bring it back", async () => {
    const { manager } = setup();
    const signIn = exchange();
    await manager.setValue(signIn, "platform.securityContext", { userId: "u1" });
    const id = setCookieValue(signIn)!;
    const straggler = exchange(`PLATFORM_SESSION=${id}`);
    expect(await manager.current(straggler)).toBeDefined(); // loaded before the logout
    await manager.invalidate(exchange(`PLATFORM_SESSION=${id}`));
    await manager.setValue(straggler, "platform.stepUpReturn", { url: "/account" }); // lands after it
    expect(await manager.current(exchange(`PLATFORM_SESSION=${id}`))).toBeUndefined();
    // The straggler's own answer clears the cookie, and its session reads as gone from then on.
    expect(setCookieValue(straggler)).toBe("");
    expect(await manager.current(straggler)).toBeUndefined();
  });

  it("nor does a plain save of such a request's session after a rotation (step-up, sign-in)", async () => {
    const { manager } = setup();
    const signIn = exchange();
    await manager.setValue(signIn, "platform.securityContext", { userId: "u1" });
    const id = setCookieValue(signIn)!;
    const straggler = exchange(`PLATFORM_SESSION=${id}`);
    await manager.current(straggler);
    await manager.rotate(exchange(`PLATFORM_SESSION=${id}`), "u1");
    await manager.save(straggler);
    expect(await manager.current(exchange(`PLATFORM_SESSION=${id}`))).toBeUndefined();
  });
});
