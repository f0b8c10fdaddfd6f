import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryRevokedAccessTokenStore } from "./in-memory-revoked-token-store.js";
import { describeRevokedAccessTokenStoreContract } from "./revoked-token-store.contract.js";

describeRevokedAccessTokenStoreContract(
  "InMemoryRevokedAccessTokenStore",
  ({ clock }) => new InMemoryRevokedAccessTokenStore({ clock }),
);

describe("InMemoryRevokedAccessTokenStore", () => {
  it("forgets entries after their expiry, so it is bounded by live tokens", async () => {
    const clock = new ManualClock();
    const store = new InMemoryRevokedAccessTokenStore({ clock, sweepIntervalMs: 1000 });
    for (let i = 0; i < 1000; i++) await store.revoke(`jti-${i}`, clock.now() + 500);
    expect(store.size()).toBe(1000);
    clock.advance(1000);
    await store.revoke("fresh", clock.now() + 60_000);
    expect(store.size()).toBe(1);
  });

  it("drops an expired entry when it is read", async () => {
    const clock = new ManualClock();
    const store = new InMemoryRevokedAccessTokenStore({ clock });
    await store.revoke("jti", clock.now() + 10);
    clock.advance(10);
    expect(await store.isRevoked("jti")).toBe(false);
    expect(store.size()).toBe(0);
  });
});
