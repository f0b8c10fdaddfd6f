import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { WebAuthnChallenge, WebAuthnChallengeStore } from "./webauthn-challenge-store.js";

/**
 * The behaviour every WebAuthnChallengeStore adapter must show. `factory` returns a fresh, empty store
 * for each test that decides expiry by the given clock.
 */
export function describeWebAuthnChallengeStoreContract(
  name: string,
  factory: (clock: ManualClock) => Promise<WebAuthnChallengeStore> | WebAuthnChallengeStore,
): void {
  describe(`WebAuthnChallengeStore contract: ${name}`, () => {
    async function setup() {
      const clock = new ManualClock(1_000);
      return { clock, store: await factory(clock) };
    }
    const challenge = (overrides: Partial<WebAuthnChallenge> = {}): WebAuthnChallenge => ({
      id: "id-1",
      challenge: "Y2hhbGxlbmdl",
      purpose: "authentication",
      expiresAt: 2_000,
      ...overrides,
    });

    it("returns a saved challenge once", async () => {
      const { store } = await setup();
      await store.save(challenge({ purpose: "registration", userId: "user-1" }));
      expect(await store.take("id-1", "registration")).toEqual(
        challenge({ purpose: "registration", userId: "user-1" }),
      );
      expect(await store.take("id-1", "registration")).toBeUndefined();
    });

    it("returns nothing for an unknown id", async () => {
      const { store } = await setup();
      expect(await store.take("nope", "authentication")).toBeUndefined();
    });

    it("returns nothing once expired, and forgets it", async () => {
      const { store, clock } = await setup();
      await store.save(challenge());
      clock.set(2_000);
      expect(await store.take("id-1", "authentication")).toBeUndefined();
      clock.set(1_000);
      expect(await store.take("id-1", "authentication")).toBeUndefined();
    });

    it("is live until just before expiresAt", async () => {
      const { store, clock } = await setup();
      await store.save(challenge());
      clock.set(1_999);
      expect(await store.take("id-1", "authentication")).toBeDefined();
    });

    it("returns nothing for the other ceremony, and burns the challenge", async () => {
      const { store } = await setup();
      await store.save(challenge({ purpose: "registration" }));
      expect(await store.take("id-1", "authentication")).toBeUndefined();
      expect(await store.take("id-1", "registration")).toBeUndefined();
    });

    it("gives exactly one of two concurrent takes the challenge", async () => {
      const { store } = await setup();
      await store.save(challenge());
      const results = await Promise.all([
        store.take("id-1", "authentication"),
        store.take("id-1", "authentication"),
      ]);
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });

    it("keeps challenges apart by id", async () => {
      const { store } = await setup();
      await store.save(challenge());
      await store.save(challenge({ id: "id-2", challenge: "b3RoZXI" }));
      expect((await store.take("id-2", "authentication"))?.challenge).toBe("b3RoZXI");
      expect((await store.take("id-1", "authentication"))?.challenge).toBe("Y2hhbGxlbmdl");
    });
  });
}
