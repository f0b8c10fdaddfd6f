import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator, type IdGenerator } from "../../kernel/id-generator.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { InMemorySessionStore } from "../session/in-memory-session-store.js";
import { SessionManager } from "../session/session-manager.js";
import { DEFAULT_CSRF_SESSION_KEY, SessionCsrfTokenRepository } from "./session-csrf-token-repository.js";

function setup(ids: IdGenerator = new CryptoIdGenerator()) {
  const clock = new ManualClock();
  const store = new InMemorySessionStore({ clock });
  const sessions = new SessionManager({ store, clock, ids: new CryptoIdGenerator() });
  return { store, sessions, repository: new SessionCsrfTokenRepository({ sessions, ids }) };
}

const exchange = () => new HttpExchange({ method: "GET", url: "/", headers: {}, remoteAddress: "::1" });

describe("SessionCsrfTokenRepository", () => {
  it("loads nothing and creates no session when there is none", async () => {
    const { store, repository } = setup();
    const ex = exchange();
    expect(await repository.load(ex)).toBeUndefined();
    expect(store.size).toBe(0);
    expect(ex.response.cookies).toEqual([]);
  });

  it("creates the token with ids.secret(32) and keeps it in the session under one key", async () => {
    const asked: (number | undefined)[] = [];
    const ids: IdGenerator = {
      id: () => "id",
      secret: (bytes) => {
        asked.push(bytes);
        return `token-${asked.length}`;
      },
    };
    const { sessions, repository } = setup(ids);
    const ex = exchange();
    expect(await repository.loadOrCreate(ex)).toBe("token-1");
    expect(await repository.loadOrCreate(ex)).toBe("token-1");
    expect(asked).toEqual([32]);
    expect(await sessions.getValue(ex, DEFAULT_CSRF_SESSION_KEY)).toBe("token-1");
    expect(await repository.rotate(ex)).toBe("token-2");
    expect(await repository.load(ex)).toBe("token-2");
  });
});
