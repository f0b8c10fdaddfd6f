import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { NewPasskeyCredential, PasskeyCredential } from "./passkey-credential.js";
import type { PasskeyCredentialRepository } from "./passkey-credential-repository.js";

/** Collaborators of the InMemoryPasskeyCredentialRepository. */
export interface InMemoryPasskeyCredentialRepositoryOptions {
  /** Stamps `createdAt`. */
  clock: Clock;
}

/**
 * The reference PasskeyCredentialRepository, used by tests and the embedded default. Each method runs
 * without an `await` between its check and its write, so check-then-write is atomic on the event loop:
 * the outcomes a database adapter gets from a unique index and a conditional update.
 */
export class InMemoryPasskeyCredentialRepository implements PasskeyCredentialRepository {
  private readonly byId = new Map<string, PasskeyCredential>();
  private readonly handleByUser = new Map<string, string>();
  private readonly userByHandle = new Map<string, string>();
  private readonly clock: Clock;

  constructor(options: InMemoryPasskeyCredentialRepositoryOptions) {
    this.clock = options.clock;
  }

  async create(input: NewPasskeyCredential): Promise<PasskeyCredential> {
    if (this.byId.has(input.id)) throw new PlatformError("CONFLICT", "This passkey is already registered");
    const stored: PasskeyCredential = {
      ...copy({ ...input, createdAt: 0, lastUsedAt: undefined, version: 1 }),
      createdAt: this.clock.now(),
    };
    this.byId.set(stored.id, stored);
    return copy(stored);
  }

  async findById(id: string): Promise<PasskeyCredential | undefined> {
    const stored = this.byId.get(id);
    return stored && copy(stored);
  }

  async listByUser(userId: string): Promise<PasskeyCredential[]> {
    return [...this.byId.values()]
      .filter((c) => c.userId === userId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(copy);
  }

  async findUserHandle(userId: string): Promise<string | undefined> {
    return this.handleByUser.get(userId);
  }

  async saveUserHandle(userId: string, handle: string): Promise<string> {
    const existing = this.handleByUser.get(userId);
    if (existing !== undefined) return existing;
    if (this.userByHandle.has(handle)) {
      throw new PlatformError("CONFLICT", "This user handle belongs to another user");
    }
    this.handleByUser.set(userId, handle);
    this.userByHandle.set(handle, userId);
    return handle;
  }

  async userIdForHandle(handle: string): Promise<string | undefined> {
    return this.userByHandle.get(handle);
  }

  async updateCounter(
    id: string,
    expectedVersion: number,
    counter: number,
    lastUsedAt: number,
  ): Promise<PasskeyCredential> {
    const stored = this.byId.get(id);
    if (!stored) throw new PlatformError("NOT_FOUND", "No such passkey");
    if (stored.version !== expectedVersion) {
      throw new PlatformError("CONFLICT", "Passkey was changed concurrently (stale version)", {
        details: { expectedVersion },
      });
    }
    const next: PasskeyCredential = { ...copy(stored), counter, lastUsedAt, version: stored.version + 1 };
    this.byId.set(id, next);
    return copy(next);
  }

  async delete(id: string, userId: string): Promise<boolean> {
    const stored = this.byId.get(id);
    if (!stored || stored.userId !== userId) return false;
    this.byId.delete(id);
    return true;
  }
}

function copy(c: PasskeyCredential): PasskeyCredential {
  return {
    id: c.id,
    userId: c.userId,
    userHandle: c.userHandle,
    publicKey: c.publicKey,
    counter: c.counter,
    transports: [...c.transports],
    deviceType: c.deviceType,
    backedUp: c.backedUp,
    aaguid: c.aaguid,
    label: c.label,
    createdAt: c.createdAt,
    lastUsedAt: c.lastUsedAt,
    version: c.version,
  };
}
