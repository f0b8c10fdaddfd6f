import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type {
  WebAuthnChallenge,
  WebAuthnChallengePurpose,
  WebAuthnChallengeStore,
} from "./webauthn-challenge-store.js";

/** Default bound of the InMemoryWebAuthnChallengeStore. */
export const DEFAULT_MAX_WEBAUTHN_CHALLENGES = 10_000;

/** Options of the InMemoryWebAuthnChallengeStore. */
export interface InMemoryWebAuthnChallengeStoreOptions {
  /** Decides expiry (a challenge is live while `clock.now() < expiresAt`). */
  clock: Clock;
  /**
   * Most challenges kept (default 10_000). Assertion options are anonymous, so a flood of them must
   * cost the oldest pending challenges (their browsers simply ask again), never the process's memory:
   * when full, expired ones are dropped first, then the oldest.
   */
  maxChallenges?: number;
}

/** The reference WebAuthnChallengeStore, used by tests and the embedded default (one process only). */
export class InMemoryWebAuthnChallengeStore implements WebAuthnChallengeStore {
  private readonly challenges = new Map<string, WebAuthnChallenge>();
  private readonly clock: Clock;
  private readonly maxChallenges: number;

  constructor(options: InMemoryWebAuthnChallengeStoreOptions) {
    this.clock = options.clock;
    this.maxChallenges = options.maxChallenges ?? DEFAULT_MAX_WEBAUTHN_CHALLENGES;
    if (!Number.isInteger(this.maxChallenges) || this.maxChallenges < 1) {
      throw new PlatformError("CONFIGURATION_INVALID", "maxChallenges must be a positive integer");
    }
  }

  /** How many challenges are held (expired ones included until they are dropped). */
  get size(): number {
    return this.challenges.size;
  }

  async save(challenge: WebAuthnChallenge): Promise<void> {
    if (this.challenges.has(challenge.id)) throw new PlatformError("CONFLICT", "Challenge id exists");
    if (this.challenges.size >= this.maxChallenges) this.makeRoom();
    this.challenges.set(challenge.id, { ...challenge });
  }

  async take(id: string, purpose: WebAuthnChallengePurpose): Promise<WebAuthnChallenge | undefined> {
    const found = this.challenges.get(id);
    if (!found) return undefined;
    this.challenges.delete(id);
    if (found.purpose !== purpose || this.clock.now() >= found.expiresAt) return undefined;
    return { ...found };
  }

  private makeRoom(): void {
    const now = this.clock.now();
    for (const [id, c] of this.challenges) if (now >= c.expiresAt) this.challenges.delete(id);
    while (this.challenges.size >= this.maxChallenges) {
      const oldest = this.challenges.keys().next();
      if (oldest.done) break;
      this.challenges.delete(oldest.value);
    }
  }
}
