import { describePasskeyCredentialRepositoryContract, ManualClock } from "@keyward/core/testing";
import type { Db } from "mongodb";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoPasskeyCredentialRepository } from "./mongo-passkey-credential-repository.js";

const credential = {
  id: "Y3JlZC0x",
  userId: "user-1",
  userHandle: "aGFuZGxlLTE",
  publicKey: "pQECAyYgASFYIA",
  counter: 0,
  transports: ["internal"],
  deviceType: "multiDevice" as const,
  backedUp: true,
  aaguid: "00000000-0000-0000-0000-000000000000",
  label: "Laptop",
};

describeAgainstMongo("MongoPasskeyCredentialRepository", (freshDb) => {
  describePasskeyCredentialRepositoryContract("MongoPasskeyCredentialRepository", async (clock) => {
    const repo = new MongoPasskeyCredentialRepository({ db: await freshDb(), clock });
    await repo.ensureIndexes();
    return repo;
  });

  describe("on MongoDB", () => {
    async function open(): Promise<{ db: Db; repo: MongoPasskeyCredentialRepository }> {
      const db = await freshDb();
      const repo = new MongoPasskeyCredentialRepository({ db, clock: new ManualClock(1_000) });
      await repo.ensureIndexes();
      return { db, repo };
    }

    it("creates its indexes idempotently", async () => {
      const { db, repo } = await open();
      await repo.ensureIndexes();
      const names = (await db.collection("passkey_user_handles").listIndexes().toArray()).map((i) => i.name);
      expect(names).toContain("handle_unique");
      const credentialIndexes = await db.collection("passkey_credentials").listIndexes().toArray();
      expect(credentialIndexes.map((i) => i.name)).toContain("userId_createdAt");
    });

    it("stores no lastUsedAt before the first sign-in (absent, not null)", async () => {
      const { db, repo } = await open();
      await repo.create(credential);
      const doc = await db.collection("passkey_credentials").findOne({ _id: credential.id as never });
      expect(doc && "lastUsedAt" in doc).toBe(false);
    });

    it("gives one of two repositories over one database the counter update, the other CONFLICT", async () => {
      const { db, repo } = await open();
      const other = new MongoPasskeyCredentialRepository({ db, clock: new ManualClock(1_000) });
      await repo.create(credential);
      const results = await Promise.allSettled([
        repo.updateCounter(credential.id, 1, 5, 2_000),
        other.updateCounter(credential.id, 1, 6, 2_000),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect((await repo.findById(credential.id))?.version).toBe(2);
    });
  });
});
