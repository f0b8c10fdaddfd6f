import { randomBytes, randomUUID } from "node:crypto";
import type { InjectionToken } from "tsyringe";

/** Source of identifiers and secrets, so tests can make them predictable. */
export interface IdGenerator {
  /** A unique, non-secret identifier (UUID). */
  id(): string;
  /** A cryptographically random secret, base64url, of `bytes` random bytes (default 32). */
  secret(bytes?: number): string;
}

/** DI token of the IdGenerator port. */
export const IdGenerator: InjectionToken<IdGenerator> = Symbol.for("platform.IdGenerator");

/** Ids and secrets from node:crypto's CSPRNG. */
export class CryptoIdGenerator implements IdGenerator {
  id(): string {
    return randomUUID();
  }
  secret(bytes = 32): string {
    return randomBytes(bytes).toString("base64url");
  }
}
