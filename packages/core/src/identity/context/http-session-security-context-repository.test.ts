import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { user } from "../authentication/authentication.fixture.js";
import { InMemorySessionStore } from "../session/in-memory-session-store.js";
import { SessionManager } from "../session/session-manager.js";
import { HttpSessionSecurityContextRepository } from "./http-session-security-context-repository.js";

function setup() {
  const clock = new ManualClock();
  const sessions = new SessionManager({
    store: new InMemorySessionStore({ clock }),
    clock,
    ids: new CryptoIdGenerator(),
  });
  return { sessions, repository: new HttpSessionSecurityContextRepository(sessions, undefined) };
}

function exchange(cookie?: string): HttpExchange {
  return new HttpExchange({ method: "GET", url: "/", headers: { cookie }, remoteAddress: "10.0.0.1" });
}

function sessionCookieOf(ex: HttpExchange): string {
  return `PLATFORM_SESSION=${ex.response.cookies.find((c) => c.name === "PLATFORM_SESSION")!.value}`;
}

describe("HttpSessionSecurityContextRepository", () => {
  it("loads the authentication a sign-in saved, on a later request of the session", async () => {
    const { repository } = setup();
    const login = exchange();
    await repository.save(login, user("u1", "alice"));
    expect(await repository.load(exchange(sessionCookieOf(login)))).toEqual(user("u1", "alice"));
  });

  it("answers at once, without a promise, from a store that answers at once (in memory)", async () => {
    const { repository } = setup();
    const login = exchange();
    await repository.save(login, user("u1", "alice"));
    const loaded = repository.load(exchange(sessionCookieOf(login)));
    expect(loaded).not.toBeInstanceOf(Promise);
    expect(loaded).toEqual(user("u1", "alice"));
    expect(repository.load(exchange())).toBeUndefined();
    expect(repository.load(exchange("PLATFORM_SESSION=unknown"))).toBeUndefined();
  });

  it("loads nothing without a session, for an unknown one, or after clear", async () => {
    const { repository } = setup();
    expect(await repository.load(exchange())).toBeUndefined();
    expect(await repository.load(exchange("PLATFORM_SESSION=unknown"))).toBeUndefined();
    const login = exchange();
    await repository.save(login, user("u1", "alice"));
    const cookie = sessionCookieOf(login);
    await repository.clear(exchange(cookie));
    expect(await repository.load(exchange(cookie))).toBeUndefined();
  });

  it("reads a stored value that is not an authentication as no authentication", async () => {
    const { sessions, repository } = setup();
    for (const planted of [
      "u1",
      { userId: "u1" },
      { userId: 1, authorities: [] },
      { userId: "u1", authorities: "ROLE_ADMIN" },
    ]) {
      const ex = exchange();
      await sessions.setValue(ex, "platform.securityContext", planted);
      expect(await repository.load(exchange(sessionCookieOf(ex))), JSON.stringify(planted)).toBeUndefined();
    }
  });
});
