import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { DEFAULT_MAX_SESSIONS, InMemorySessionStore } from "./in-memory-session-store.js";
import type { SessionRecord } from "./session-store.js";
import { describeSessionStoreContract } from "./session-store.contract.js";

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

  it("drops an expired session when it is read", async () => {
    const clock = new ManualClock(T0);
    const store = new InMemorySessionStore({ clock });
    await store.save(record("s", T0 + 1));
    clock.advance(1);
    expect(await store.get("s")).toBeUndefined();
    expect(store.size).toBe(0);
  });
});
