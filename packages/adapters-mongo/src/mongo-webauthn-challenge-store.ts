import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  WebAuthnChallenge,
  WebAuthnChallengePurpose,
  WebAuthnChallengeStore,
} from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `webauthn_challenges` collection's document: the challenge, `_id` = its lookup id. */
export interface WebAuthnChallengeDocument {
  _id: string;
  challenge: string;
  purpose: WebAuthnChallengePurpose;
  userId?: string;
  expiresAt: number;
  /** `expiresAt` as a Date, for the TTL index (liveness is judged by the Clock on `take`). */
  expiresAtDate: Date;
}

/** Options of the MongoWebAuthnChallengeStore. */
export interface MongoWebAuthnChallengeStoreOptions {
  db: Db;
  /** Decides expiry (a challenge is live while `clock.now() < expiresAt`). */
  clock: Clock;
  /** Collection name (default `webauthn_challenges`). */
  collection?: string;
}

/**
 * WebAuthnChallengeStore on MongoDB. Single use holds by one `findOneAndDelete` on the id: of two
 * concurrent takes only one gets the document back. The purpose and the expiry are judged on the
 * returned document, not in the filter, because the port burns a challenge in every case (a take for
 * the other ceremony, or after expiry, must remove it too); the Clock decides expiry, so a late TTL
 * monitor never revives one. A duplicate id is 11000 → `CONFLICT`. One command per method.
 */
export class MongoWebAuthnChallengeStore implements WebAuthnChallengeStore {
  private readonly challenges: Collection<WebAuthnChallengeDocument>;
  private readonly clock: Clock;

  constructor(options: MongoWebAuthnChallengeStoreOptions) {
    this.challenges = options.db.collection<WebAuthnChallengeDocument>(
      options.collection ?? "webauthn_challenges",
      { ignoreUndefined: true },
    );
    this.clock = options.clock;
  }

  /** Creates the TTL index (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.challenges.createIndexes([
      { key: { expiresAtDate: 1 }, name: "expiresAt_ttl", expireAfterSeconds: 0 },
    ]);
  }

  async save(challenge: WebAuthnChallenge): Promise<void> {
    const doc: WebAuthnChallengeDocument = {
      _id: challenge.id,
      challenge: challenge.challenge,
      purpose: challenge.purpose,
      expiresAt: challenge.expiresAt,
      expiresAtDate: new Date(challenge.expiresAt),
    };
    if (challenge.userId !== undefined) doc.userId = challenge.userId;
    try {
      await this.challenges.insertOne(doc);
    } catch (e) {
      if (isDuplicateKey(e)) throw new PlatformError("CONFLICT", "Challenge id exists", { cause: e });
      throw e;
    }
  }

  async take(id: string, purpose: WebAuthnChallengePurpose): Promise<WebAuthnChallenge | undefined> {
    const doc = await this.challenges.findOneAndDelete({ _id: id });
    if (!doc || doc.purpose !== purpose || this.clock.now() >= doc.expiresAt) return undefined;
    const taken: WebAuthnChallenge = {
      id: doc._id,
      challenge: doc.challenge,
      purpose: doc.purpose,
      expiresAt: doc.expiresAt,
    };
    if (doc.userId !== undefined) taken.userId = doc.userId;
    return taken;
  }
}
