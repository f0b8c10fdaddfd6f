import type { InjectionToken } from "tsyringe";

/**
 * Where an account's recovery codes live: only their keyed hashes (`RecoveryCodeHasher`), never a
 * code. A set is replaced whole in one step (a new set voids every code of the old one), and a code
 * is spent by its hash in one atomic step, so two concurrent spends of the same code have exactly one
 * winner, across instances. The store looks a code up by its hash (an equality match): it never
 * compares a presented code against each kept one.
 */
export interface RecoveryCodeStore {
  /** Replaces `userId`'s whole set by `codeHashes` (one step; an empty list leaves none). */
  replace(userId: string, codeHashes: readonly string[], createdAt: number): Promise<void>;
  /** Spends the unused code of `userId` whose hash is `codeHash`; false when there is none (wrong or spent). */
  spend(userId: string, codeHash: string): Promise<boolean>;
  /** How many unused codes `userId` has left (0 without a set). */
  remaining(userId: string): Promise<number>;
  /** Removes `userId`'s set; true when there was one. */
  remove(userId: string): Promise<boolean>;
}

/** DI token of the RecoveryCodeStore port. */
export const RecoveryCodeStore: InjectionToken<RecoveryCodeStore> = Symbol.for("platform.RecoveryCodeStore");
