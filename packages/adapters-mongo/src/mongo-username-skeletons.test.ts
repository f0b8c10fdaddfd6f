import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import { codeOf } from "@keyward/core/testing";
import type { Db } from "mongodb";
import { expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MONGO_MIGRATIONS } from "./mongo-migrations.js";
import { MongoUserRepository, type UserDocument } from "./mongo-user-repository.js";
import { backfillUsernameSkeletons, collisionReport } from "./mongo-username-skeletons.js";

/** Accounts as a build before the username rule stored them: no skeleton, names it would now refuse. */
const STORED = [
  ["u-admin", "admin"],
  ["u-cyrillic", "\u0430dmin"],
  ["u-dotless", "adm\u0131n"],
  ["u-user", "user"],
  ["u-cgj", "user\u034f"],
  ["u-bob", "bob"],
] as const;

async function storedBeforeTheRule(db: Db): Promise<void> {
  const users = db.collection<UserDocument>("users");
  await users.createIndex({ usernameKey: 1 }, { name: "usernameKey_unique", unique: true });
  await users.insertMany(
    STORED.map(([id, username], i) => ({
      _id: id,
      username,
      usernameKey: username.normalize("NFKC").toLowerCase().normalize("NFKC").trim(),
      authorities: ["ROLE_USER"],
      enabled: true,
      locked: false,
      version: 1,
      createdAt: 1_000 + i,
    })),
  );
}

async function migratedRepository(db: Db): Promise<MongoUserRepository> {
  await storedBeforeTheRule(db);
  await backfillUsernameSkeletons(db);
  const repo = new MongoUserRepository({ db, ids: new CryptoIdGenerator(), clock: new SystemClock() });
  await repo.ensureIndexes();
  return repo;
}

describeAgainstMongo("username skeletons: migration 2 and accounts stored before the rule", (freshDb) => {
  it("is migration 2 of this build", () => {
    expect(MONGO_MIGRATIONS.map((m) => m.version)).toEqual([1, 2]);
  });

  it("back-fills the skeleton, oldest first, and reports lookalikes of older accounts instead of failing", async () => {
    const db = await freshDb();
    await storedBeforeTheRule(db);
    const collisions = await backfillUsernameSkeletons(db);
    expect(collisions).toEqual([
      { holder: "u-admin", lookalikes: ["u-cyrillic", "u-dotless"] },
      { holder: "u-user", lookalikes: ["u-cgj"] },
    ]);
    const docs = await db.collection<UserDocument>("users").find({}).sort({ _id: 1 }).toArray();
    const withSkeleton = docs.filter((d) => d.usernameSkeleton !== undefined).map((d) => d._id);
    expect(withSkeleton).toEqual(["u-admin", "u-bob", "u-user"]);
    expect(await backfillUsernameSkeletons(db)).toEqual(collisions);
  });

  it("reports account ids and counts only, never the names", async () => {
    const report = collisionReport([{ holder: "u-admin", lookalikes: ["u-cyrillic", "u-dotless"] }]);
    expect(report?.message).toMatch(/^2 existing account\(s\) have a username that looks like/);
    expect(report?.details).toEqual({
      collection: "users",
      collisions: [{ holder: "u-admin", lookalikes: ["u-cyrillic", "u-dotless"] }],
    });
    expect(collisionReport([])).toBeUndefined();
  });

  it("keeps finding every stored account under its own name, lookalikes included", async () => {
    const repo = await migratedRepository(await freshDb());
    for (const [id, username] of STORED) {
      expect((await repo.findByUsername(username))?.id, username).toBe(id);
    }
    expect((await repo.findByUsername("ADMIN"))?.id).toBe("u-admin");
    expect(await repo.findByUsername("adrnin")).toBeUndefined();
  });

  it("keeps a stored lookalike updatable while its name stays, and lets it be renamed to a distinct name", async () => {
    const repo = await migratedRepository(await freshDb());
    const cyrillic = (await repo.findByUsername("\u0430dmin"))!;
    const disabled = await repo.update({ ...cyrillic, enabled: false });
    expect(disabled).toMatchObject({ username: "\u0430dmin", enabled: false, version: 2 });
    expect(await codeOf(repo.update({ ...disabled, username: "ADMIN2\u0430" }))).toBe("VALIDATION_FAILED");
    expect(await codeOf(repo.update({ ...disabled, username: "adm\u0131n" }))).toBe("CONFLICT");
    const renamed = await repo.update({ ...disabled, username: "cyril" });
    expect(renamed).toMatchObject({ username: "cyril", version: 3 });
    expect(await codeOf(repo.create({ username: "cyri1" }))).toBe("CONFLICT");
  });

  it("holds the skeleton of every stored name against new ones", async () => {
    const repo = await migratedRepository(await freshDb());
    for (const username of ["adrnin", "Admin", "USER", "bob"]) {
      expect(await codeOf(repo.create({ username })), username).toBe("CONFLICT");
    }
    await expect(repo.create({ username: "carol" })).resolves.toMatchObject({ username: "carol" });
  });
});
