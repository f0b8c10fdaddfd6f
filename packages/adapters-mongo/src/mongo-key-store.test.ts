import type { StoredKey } from "@keyward/core/ports";
import { describeKeyStoreContract } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoKeyStore } from "./mongo-key-store.js";

const T0 = Date.UTC(2026, 0, 1);

function key(kid: string, purpose = "jwt.signing"): StoredKey {
  return { purpose, kid, algorithm: "HS256", material: `sealed:${kid}`, createdAt: T0 };
}

describeAgainstMongo("MongoKeyStore", (freshDb) => {
  describeKeyStoreContract("MongoKeyStore", async () => {
    const store = new MongoKeyStore({ db: await freshDb() });
    await store.ensureIndexes();
    return store;
  });

  describe("on MongoDB", () => {
    const setup = async () => {
      const db = await freshDb();
      const store = new MongoKeyStore({ db });
      await store.ensureIndexes();
      return { db, store, keys: db.collection("keys") };
    };

    it("is durable, so the KeyRing insists on a key-encryption key", async () => {
      expect(new MongoKeyStore({ db: await freshDb() }).durable).toBe(true);
    });

    it("refuses a second active key of a purpose in the database itself (partial unique index)", async () => {
      const { store, keys } = await setup();
      await store.activeOrCreate(key("a"));
      await expect(keys.insertOne({ purpose: "jwt.signing", kid: "b", current: true })).rejects.toMatchObject(
        {
          code: 11000,
        },
      );
      // Retired keys are outside the index: any number of them.
      await keys.insertMany([
        { purpose: "jwt.signing", kid: "old-1", retiredAt: T0 },
        { purpose: "jwt.signing", kid: "old-2", retiredAt: T0 },
      ]);
    });

    it("stores the sealed material as given, and a TTL date on a retired key's verifyUntil", async () => {
      const { store, keys } = await setup();
      await store.activeOrCreate(key("a"));
      await store.rotate("jwt.signing", "a", key("b"), { at: T0 + 1, verifyUntil: T0 + 1000 });
      const old = await keys.findOne({ kid: "a" });
      expect(old).toMatchObject({
        material: "sealed:a",
        retiredAt: T0 + 1,
        verifyUntilDate: new Date(T0 + 1000),
      });
      expect(old?.current).toBeUndefined();
      expect(await keys.findOne({ kid: "b" })).toMatchObject({ material: "sealed:b", current: true });
    });

    it("refuses a rotation to a kid the ring already holds, leaving the active key active", async () => {
      const { store } = await setup();
      await store.activeOrCreate(key("a"));
      await store.rotate("jwt.signing", "a", key("b"), { at: T0 + 1, verifyUntil: T0 + 1000 });
      expect(await store.rotate("jwt.signing", "b", key("a"), { at: T0 + 2, verifyUntil: T0 + 1000 })).toBe(
        false,
      );
      const ring = await store.keys("jwt.signing", T0 + 3);
      expect(ring.map((k) => [k.kid, k.retiredAt])).toEqual([
        ["b", undefined],
        ["a", T0 + 1],
      ]);
    });

    it("refuses a first key whose kid a retired key holds, with CONFLICT, storing nothing", async () => {
      const { db, store, keys } = await setup();
      await store.activeOrCreate(key("a"));
      await store.rotate("jwt.signing", "a", key("b"), { at: T0 + 1, verifyUntil: T0 + 1000 });
      await store.rotate("jwt.signing", "b", key("c"), { at: T0 + 2, verifyUntil: T0 + 1000 });
      await keys.deleteOne({ kid: "c" }); // as a crash between retiring "b" and storing "c" leaves it
      const reopened = new MongoKeyStore({ db });
      await expect(reopened.activeOrCreate(key("a"))).rejects.toMatchObject({ code: "CONFLICT" });
      expect((await reopened.activeOrCreate(key("d"))).kid).toBe("d");
    });

    it("creates its indexes idempotently", async () => {
      const { store, keys } = await setup();
      await store.ensureIndexes();
      const indexes = await keys.listIndexes().toArray();
      expect(indexes.map((i) => i.name).sort()).toEqual(
        ["_id_", "purpose_current_unique", "purpose_kid_unique", "verifyUntil_ttl"].sort(),
      );
      expect(indexes.find((i) => i.name === "purpose_current_unique")).toMatchObject({
        unique: true,
        partialFilterExpression: { current: true },
      });
    });
  });
});
