import { createHash } from "node:crypto";
import { z } from "zod";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import { passkeySummary } from "../../identity/passkey/passkey-management-endpoints.js";
import { type SessionStore, sessionStoreHandle } from "../../identity/session/session-store.js";
import type { UserRepository } from "../../identity/users/user-repository.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { SignInHistoryStore } from "../adaptive/sign-in-history-store.js";
import type { DeviceCookies } from "../device/device-cookies.js";
import type { Factor } from "../factor-family/factor.js";

/** The account overview's shape (`GET /api/account`'s answer, and what the `/account` page shows). */
export const AccountOverviewSchema = z.object({
  username: z.string(),
  email: z.string().nullable(),
  factors: z.array(
    z.object({
      type: z.string(),
      label: z.string(),
      kind: z.string(),
      enrolled: z.boolean(),
      remaining: z.number().int().optional(),
    }),
  ),
  passkeys: z.array(z.looseObject({ id: z.string(), label: z.string() })),
  sessions: z.array(
    z.object({
      handle: z.string(),
      createdAt: z.string(),
      lastAccessedAt: z.string(),
      expiresAt: z.string(),
      current: z.boolean(),
    }),
  ),
  devices: z.array(z.object({ handle: z.string(), current: z.boolean() })),
});

/** The signed-in user's account security, as the overview answers it. */
export type AccountOverview = z.infer<typeof AccountOverviewSchema>;

/** What the account overview reads. */
export interface AccountOverviewOptions {
  users: UserRepository;
  /** Every factor member, offered or not (an enrolment outlives the offer). */
  factors: () => readonly Factor[];
  passkeys: PasskeyCredentialRepository;
  sessions: SessionStore;
  /** The session cookie's name (the current session is marked). */
  sessionCookie: string;
  /** The devices the user completed sign-ins on (server-issued device ids), most recent first. */
  history: SignInHistoryStore;
  /** Which device the caller is (its verified device cookie). */
  devices: DeviceCookies;
}

/** The handle of the caller's own session (its cookie's), or undefined without one (a bearer caller). */
export function currentSessionHandle(exchange: HttpExchange, sessionCookie: string): string | undefined {
  const cookie = exchange.cookie(sessionCookie);
  return cookie === undefined ? undefined : sessionStoreHandle(cookie);
}

/**
 * Reads the signed-in user's account security: their address, each factor (enrolled, and how many
 * single-use answers are left where a factor counts them), their passkeys (no key material), their
 * open sessions by handle (the SHA-256 of the id, never the id; the caller's own marked `current`)
 * and the devices they signed in on, by handle (the SHA-256 of the device id, never the id).
 */
export class AccountOverviewReader {
  constructor(private readonly o: AccountOverviewOptions) {}

  /** The overview of the caller; 401 AUTHENTICATION_REQUIRED when anonymous or the account is gone. */
  async read(exchange: HttpExchange, who: Authentication | undefined): Promise<AccountOverview> {
    if (!who) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    const account = await this.o.users.findById(who.userId);
    if (!account) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    return {
      username: account.username,
      email: account.email ?? null,
      factors: await this.factors(account.id),
      passkeys: (await this.o.passkeys.listByUser(account.id)).map(passkeySummary),
      sessions: await this.sessions(account.id, currentSessionHandle(exchange, this.o.sessionCookie)),
      devices: await this.devices(account.id, this.o.devices.verifiedId(exchange)),
    };
  }

  private factors(userId: string): Promise<AccountOverview["factors"]> {
    return Promise.all(
      this.o.factors().map(async (f) => {
        const remaining = f.remaining ? await f.remaining(userId) : undefined;
        return {
          type: f.type,
          label: f.label,
          kind: f.kind,
          enrolled: await f.enrolled(userId),
          ...(remaining === undefined ? {} : { remaining }),
        };
      }),
    );
  }

  private async sessions(userId: string, current: string | undefined): Promise<AccountOverview["sessions"]> {
    const iso = (ms: number) => new Date(ms).toISOString();
    return (await this.o.sessions.listByUser(userId)).map((s) => ({
      handle: s.handle,
      createdAt: iso(s.createdAt),
      lastAccessedAt: iso(s.lastAccessedAt),
      expiresAt: iso(s.expiresAt),
      current: s.handle === current,
    }));
  }

  private async devices(userId: string, current: string | undefined): Promise<AccountOverview["devices"]> {
    const { knownDevices } = await this.o.history.historyOf(userId);
    return knownDevices.map((id) => ({ handle: deviceHandle(id), current: id === current }));
  }
}

/** A device id's handle: its SHA-256, base64url (names the device without revealing its id). */
function deviceHandle(deviceId: string): string {
  return createHash("sha256").update(deviceId, "utf8").digest("base64url");
}
