import { MongoKeyStore } from "@keyward/adapters-mongo";
import { describeAgainstMongo } from "@keyward/adapters-mongo/testing";
import { createPlatform } from "@keyward/core";
import { KeyStore } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import {
  SETUP_TOKEN_PURPOSE,
  SETUP_TOKEN_TTL_MS,
  type SetupTokenIssue,
  SetupTokens,
} from "./setup-tokens.js";

/** The kernel's default KeyStore (in memory), as a platform registers it. */
function inMemoryStore(): KeyStore {
  return createPlatform({ plugins: [], env: {} }).resolve(KeyStore);
}

const made = (issues: SetupTokenIssue[]) => issues.filter((i) => i.kind === "made");

/** The token rules on one store, however it is kept. */
function describeSetupTokens(label: string, newStore: () => Promise<{ a: KeyStore; b: KeyStore }>) {
  describe(`setup tokens on ${label}`, () => {
    it("makes one token per empty store when several instances start together; the others see it live", async () => {
      const { a, b } = await newStore();
      const clock = new ManualClock();
      const now = () => clock.now();
      const issues = await Promise.all([a, b, a, b].map((store) => new SetupTokens({ store, now }).issue()));
      expect(made(issues)).toHaveLength(1);
      const expiresAt = clock.now() + SETUP_TOKEN_TTL_MS;
      expect(issues.every((i) => i.expiresAt === expiresAt)).toBe(true);
      expect((await a.keys(SETUP_TOKEN_PURPOSE, clock.now())).length).toBe(1);
    });

    it("is spent once: a second spend, from any instance, is refused, and so is a wrong token", async () => {
      const { a, b } = await newStore();
      const clock = new ManualClock();
      const now = () => clock.now();
      const issue = await new SetupTokens({ store: a, now }).issue();
      if (issue.kind !== "made") throw new Error("expected a new token");
      const onA = new SetupTokens({ store: a, now });
      const onB = new SetupTokens({ store: b, now });
      const wrong = `${issue.token.slice(0, -1)}${issue.token.endsWith("x") ? "y" : "x"}`;
      expect(await onB.spend(wrong)).toBe(false);
      expect(await onB.spend("")).toBe(false);
      expect(await onB.spend("x".repeat(10_000))).toBe(false);
      expect(await onB.state()).toBe("live");
      const spends = await Promise.all([onA.spend(issue.token), onB.spend(issue.token)]);
      expect(await onB.state()).toBe("spent");
      expect(spends.filter(Boolean)).toHaveLength(1);
      expect(await onA.spend(issue.token)).toBe(false);
      // The store keeps only its digest, never the token.
      const [record] = await a.keys(SETUP_TOKEN_PURPOSE, clock.now());
      expect(JSON.stringify(record)).not.toContain(issue.token);
    });

    it("expires after the documented time; a later start makes a new one and the old one stays dead", async () => {
      const { a, b } = await newStore();
      const clock = new ManualClock();
      const now = () => clock.now();
      const first = await new SetupTokens({ store: a, now }).issue();
      if (first.kind !== "made") throw new Error("expected a new token");
      clock.advance(SETUP_TOKEN_TTL_MS);
      expect(await new SetupTokens({ store: b, now }).state()).toBe("none");
      expect(await new SetupTokens({ store: b, now }).spend(first.token)).toBe(false);
      const later = await Promise.all([a, b].map((store) => new SetupTokens({ store, now }).issue()));
      expect(made(later)).toHaveLength(1);
      const fresh = made(later)[0]!;
      if (fresh.kind !== "made") throw new Error("unreachable");
      expect(fresh.token).not.toBe(first.token);
      expect(await new SetupTokens({ store: a, now }).spend(first.token)).toBe(false);
      clock.advance(SETUP_TOKEN_TTL_MS - 1);
      expect(await new SetupTokens({ store: b, now }).spend(fresh.token)).toBe(true);
    });

    it("a spent token is replaced by the next start (an administrator deleted since, or a failed creation)", async () => {
      const { a } = await newStore();
      const clock = new ManualClock();
      const tokens = new SetupTokens({ store: a, now: () => clock.now() });
      const first = await tokens.issue();
      if (first.kind !== "made") throw new Error("expected a new token");
      expect(await tokens.spend(first.token)).toBe(true);
      const next = await tokens.issue();
      expect(next.kind).toBe("made");
    });
  });
}

describeSetupTokens("the in-memory store (one store, two instances)", async () => {
  const store = inMemoryStore();
  return { a: store, b: store };
});

describeAgainstMongo("setup tokens", (freshDb) => {
  describeSetupTokens("MongoDB (two instances' stores on one database)", async () => {
    const db = await freshDb();
    const a = new MongoKeyStore({ db });
    await a.ensureIndexes();
    return { a, b: new MongoKeyStore({ db }) };
  });
});
