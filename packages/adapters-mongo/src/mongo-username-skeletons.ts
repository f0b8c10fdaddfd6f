import { usernameSkeleton } from "@keyward/core/adapter-kit";
import type { Db } from "mongodb";
import type { MigrationReport, MongoMigration } from "./mongo-migrations.js";
import type { UserDocument } from "./mongo-user-repository.js";

/** Accounts whose stored names share one confusable skeleton: who holds it, and who could not. */
export interface UsernameCollision {
  /** The oldest account of the group (by `createdAt`, then id): its document carries the skeleton. */
  holder: string;
  /** The others, oldest first: left without `usernameSkeleton`, still signing in under their own names. */
  lookalikes: string[];
}

/**
 * Back-fills `usernameSkeleton` on every `users` document that lacks it, oldest first, and reports
 * the accounts whose skeleton an older account already holds instead of failing: they keep their
 * names and sign in as before (lookups use `usernameKey`), but no new name can take that skeleton.
 * Idempotent: a second run finds only the reported accounts and reports them again.
 */
export async function backfillUsernameSkeletons(db: Db, collection = "users"): Promise<UsernameCollision[]> {
  const users = db.collection<UserDocument>(collection);
  const holders = new Map<string, string>();
  const stored = users.find({ usernameSkeleton: { $exists: true } }, { projection: { usernameSkeleton: 1 } });
  for await (const doc of stored) holders.set(doc.usernameSkeleton as string, doc._id);
  const collisions = new Map<string, UsernameCollision>();
  const missing = users
    .find({ usernameSkeleton: { $exists: false } }, { projection: { username: 1 } })
    .sort({ createdAt: 1, _id: 1 });
  for await (const doc of missing) {
    const skeleton = usernameSkeleton(doc.username);
    const holder = holders.get(skeleton);
    if (holder === undefined) {
      await users.updateOne(
        { _id: doc._id, usernameSkeleton: { $exists: false } },
        { $set: { usernameSkeleton: skeleton } },
      );
      holders.set(skeleton, doc._id);
      continue;
    }
    const collision = collisions.get(skeleton) ?? { holder, lookalikes: [] };
    collision.lookalikes.push(doc._id);
    collisions.set(skeleton, collision);
  }
  return [...collisions.values()];
}

/** What an operator is told about `collisions` (account ids only: the log is no place for names). */
export function collisionReport(collisions: readonly UsernameCollision[]): MigrationReport | undefined {
  if (collisions.length === 0) return undefined;
  const accounts = collisions.reduce((n, c) => n + c.lookalikes.length, 0);
  return {
    message:
      `${accounts} existing account(s) have a username that looks like an older account's (same UTS #39 skeleton): ` +
      "they keep signing in under their own names; review them and rename where it misleads (docs/mongodb.md)",
    details: {
      collection: "users",
      collisions: collisions.map((c) => ({ ...c, lookalikes: [...c.lookalikes] })),
    },
  };
}

/** Schema version 2: the username skeleton (issue #25 item 5). */
export const USERNAME_SKELETON_MIGRATION: MongoMigration = {
  version: 2,
  description: "users: back-fill usernameSkeleton (UTS #39) and report existing lookalike names",
  up: async (db, report) => {
    const found = collisionReport(await backfillUsernameSkeletons(db));
    if (found) report(found);
  },
};
