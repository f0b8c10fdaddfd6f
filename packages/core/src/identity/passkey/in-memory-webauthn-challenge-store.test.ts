import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryWebAuthnChallengeStore } from "./in-memory-webauthn-challenge-store.js";
import { describeWebAuthnChallengeStoreContract } from "./webauthn-challenge-store.contract.js";

describeWebAuthnChallengeStoreContract(
  "InMemoryWebAuthnChallengeStore",
  (clock) => new InMemoryWebAuthnChallengeStore({ clock }),
);

describe("InMemoryWebAuthnChallengeStore bound", () => {
  const challenge = (id: string, expiresAt: number) => ({
    id,
    challenge: "Yw",
    purpose: "authentication" as const,
    expiresAt,
  });

  it("drops expired challenges first, then the oldest, when full", async () => {
    const clock = new ManualClock(0);
    const store = new InMemoryWebAuthnChallengeStore({ clock, maxChallenges: 3 });
    await store.save(challenge("old", 5_000));
    await store.save(challenge("short", 10));
    await store.save(challenge("mid", 5_000));
    clock.set(100);
    await store.save(challenge("new-1", 5_000));
    expect(store.size).toBe(3);
    expect(await store.take("old", "authentication")).toBeDefined();
    await store.save(challenge("new-2", 5_000));
    await store.save(challenge("new-3", 5_000));
    expect(store.size).toBe(3);
    expect(await store.take("mid", "authentication")).toBeUndefined();
    expect(await store.take("new-3", "authentication")).toBeDefined();
  });

  it("refuses a bound below 1", () => {
    expect(
      () => new InMemoryWebAuthnChallengeStore({ clock: new ManualClock(), maxChallenges: 0 }),
    ).toThrow();
  });
});
