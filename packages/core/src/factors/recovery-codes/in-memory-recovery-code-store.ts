import type { RecoveryCodeStore } from "./recovery-code-store.js";

/** The in-memory RecoveryCodeStore (one process): each method is one synchronous step, so atomic. */
export class InMemoryRecoveryCodeStore implements RecoveryCodeStore {
  private readonly sets = new Map<string, Set<string>>();

  async replace(userId: string, codeHashes: readonly string[], _createdAt: number): Promise<void> {
    this.sets.set(userId, new Set(codeHashes));
  }

  async spend(userId: string, codeHash: string): Promise<boolean> {
    return this.sets.get(userId)?.delete(codeHash) ?? false;
  }

  async remaining(userId: string): Promise<number> {
    return this.sets.get(userId)?.size ?? 0;
  }

  async remove(userId: string): Promise<boolean> {
    return this.sets.delete(userId);
  }
}
