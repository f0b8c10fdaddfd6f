import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryRefreshTokenStore } from "./in-memory-refresh-token-store.js";
import { hashRefreshToken } from "./refresh-token-store.js";
import { describeRefreshTokenStoreContract } from "./refresh-token-store.contract.js";

describeRefreshTokenStoreContract(
  "InMemoryRefreshTokenStore",
  ({ clock }) => new InMemoryRefreshTokenStore({ clock }),
);

describe("InMemoryRefreshTokenStore", () => {
  it("sweeps expired records out on write, so memory is bounded by live tokens", async () => {
    const clock = new ManualClock();
    const store = new InMemoryRefreshTokenStore({ clock, sweepIntervalMs: 1000 });
    const record = (i: number, ttl: number) => ({
      id: `rt-${i}`,
      tokenHash: hashRefreshToken(`t-${i}`),
      familyId: `f-${i}`,
      userId: "u",
      authentication: {
        username: "u",
        authorities: [],
        method: "rest" as const,
        authenticatedAt: 0,
        factors: [],
      },
      expiresAt: clock.now() + ttl,
    });
    for (let i = 0; i < 100; i++) await store.create(record(i, 500));
    expect(store.size()).toBe(100);
    clock.advance(1000);
    await store.create(record(100, 60_000));
    expect(store.size()).toBe(1);
  });

  it("lets an expired record's id and hash be reused", async () => {
    const clock = new ManualClock();
    const store = new InMemoryRefreshTokenStore({ clock });
    const first = {
      id: "rt",
      tokenHash: hashRefreshToken("t"),
      familyId: "f",
      userId: "u",
      authentication: {
        username: "u",
        authorities: [],
        method: "rest" as const,
        authenticatedAt: 0,
        factors: [],
      },
      expiresAt: clock.now() + 10,
    };
    await store.create(first);
    clock.advance(10);
    const again = await store.create({ ...first, expiresAt: clock.now() + 10 });
    expect(await store.findByHash(first.tokenHash)).toEqual(again);
  });
});
