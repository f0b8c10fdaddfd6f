import type { TotpEnrolment, TotpEnrolmentStore } from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `totp_enrolments` collection's document: one per account, `_id` = the user id. */
export interface TotpEnrolmentDocument {
  _id: string;
  /** The secret sealed by the key ring (never the secret). */
  sealedSecret: string;
  confirmed: boolean;
  createdAt: number;
  lastStep?: number;
  confirmFailures?: number;
}

/** Options of the MongoTotpEnrolmentStore. */
export interface MongoTotpEnrolmentStoreOptions {
  db: Db;
  /** Collection name (default `totp_enrolments`). */
  collection?: string;
}

/**
 * TotpEnrolmentStore on MongoDB, one document per account. Every decision is one conditional
 * single-document update, so instances agree: `begin` upserts only over an unconfirmed document (a
 * confirmed one makes the upsert's insert collide: false); `confirm` and `claimStep` match the
 * enrolment's state and, for a claim, `lastStep` below the step, so of concurrent claims of one step
 * exactly one modifies; `recordConfirmFailure` counts with one `$inc` and the failure that reaches
 * the limit removes the document with a delete that only matches at the limit (one of concurrent
 * failures removes it). Commands: 1 per method, 2 for the failure that reaches the limit.
 */
export class MongoTotpEnrolmentStore implements TotpEnrolmentStore {
  private readonly enrolments: Collection<TotpEnrolmentDocument>;

  constructor(options: MongoTotpEnrolmentStoreOptions) {
    this.enrolments = options.db.collection<TotpEnrolmentDocument>(options.collection ?? "totp_enrolments");
  }

  /** Nothing beyond `_id` (every lookup is by account). */
  async ensureIndexes(): Promise<void> {}

  async find(userId: string): Promise<TotpEnrolment | undefined> {
    const doc = await this.enrolments.findOne({ _id: userId });
    if (!doc) return undefined;
    const { _id, ...rest } = doc;
    return { userId: _id, ...rest };
  }

  async begin(e: { userId: string; sealedSecret: string; createdAt: number }): Promise<boolean> {
    try {
      await this.enrolments.updateOne(
        { _id: e.userId, confirmed: false },
        {
          $set: { sealedSecret: e.sealedSecret, createdAt: e.createdAt, confirmed: false },
          $unset: { lastStep: "", confirmFailures: "" },
        },
        { upsert: true },
      );
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async confirm(userId: string, sealedSecret: string, step: number): Promise<boolean> {
    const result = await this.enrolments.updateOne(
      { _id: userId, confirmed: false, sealedSecret },
      { $set: { confirmed: true, lastStep: step }, $unset: { confirmFailures: "" } },
    );
    return result.modifiedCount === 1;
  }

  async recordConfirmFailure(userId: string, sealedSecret: string, max: number): Promise<boolean> {
    const after = await this.enrolments.findOneAndUpdate(
      { _id: userId, confirmed: false, sealedSecret },
      { $inc: { confirmFailures: 1 } },
      { returnDocument: "after" },
    );
    if (!after || (after.confirmFailures ?? 0) < max) return false;
    const removed = await this.enrolments.deleteOne({
      _id: userId,
      confirmed: false,
      sealedSecret,
      confirmFailures: { $gte: max },
    });
    return removed.deletedCount === 1;
  }

  async claimStep(userId: string, step: number): Promise<boolean> {
    const result = await this.enrolments.updateOne(
      { _id: userId, confirmed: true, $or: [{ lastStep: { $exists: false } }, { lastStep: { $lt: step } }] },
      { $set: { lastStep: step } },
    );
    return result.modifiedCount === 1;
  }

  async remove(userId: string): Promise<boolean> {
    return (await this.enrolments.deleteOne({ _id: userId })).deletedCount === 1;
  }
}
