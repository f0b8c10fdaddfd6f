import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { UserRepository } from "../users/user-repository.js";
import type { PasskeyCredentialRepository } from "./passkey-credential-repository.js";
import type { WebAuthnChallengeStore } from "./webauthn-challenge-store.js";

/** Default lifetime of an issued challenge: 5 minutes. */
export const DEFAULT_PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Default relying party name. */
export const DEFAULT_PASSKEY_RP_NAME = "platform-identity";
/** Default relying party id. */
export const DEFAULT_PASSKEY_RP_ID = "localhost";

/** Collaborators and settings of the PasskeyService. */
export interface PasskeyServiceOptions {
  /** Relying party display name (default `platform-identity`). */
  rpName?: string;
  /** Relying party id, the site's domain (default `localhost`). */
  rpId?: string;
  /** The origins a response may come from, read at each verification (exact match, e.g. `http://localhost:8080`). */
  allowedOrigins: () => readonly (string | undefined)[];
  credentials: PasskeyCredentialRepository;
  challenges: WebAuthnChallengeStore;
  users: UserRepository;
  clock: Clock;
  /** Challenge ids, challenges and user handles (`secret(32)`). */
  ids: IdGenerator;
  audit: AuditSink;
  events: EventBus;
  /** How long an issued challenge lives (default 5 minutes); also the browser's ceremony timeout. */
  challengeTtlMs?: number;
}
