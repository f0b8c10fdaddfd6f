import { z } from "zod";
import { currentAuthentication } from "../../identity/authentication/authentication.js";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import type { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import { passkeySummary } from "../../identity/passkey/passkey-management-endpoints.js";
import { type SessionStore, sessionStoreHandle } from "../../identity/session/session-store.js";
import type { UserRepository } from "../../identity/users/user-repository.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Factor } from "../factor-family/factor.js";

/** Where the signed-in user reads their account's security. */
export const ACCOUNT_OVERVIEW_URL = "/api/account";

const Overview = z.object({
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
});

/** What the account overview reads. */
export interface AccountOverviewOptions {
  users: UserRepository;
  /** Every factor member, offered or not (an enrolment outlives the offer). */
  factors: () => readonly Factor[];
  passkeys: PasskeyCredentialRepository;
  sessions: SessionStore;
  /** The session cookie's name (the current session is marked). */
  sessionCookie: string;
}

/**
 * `GET /api/account`: the signed-in user's account security in one answer: their address, each
 * factor (enrolled, and how many single-use answers are left where a factor counts them), their
 * passkeys (no key material) and their open sessions by handle (the SHA-256 of the id, never the id;
 * the caller's own marked `current`). Read-only, `no-store`.
 */
export class AccountOverviewEndpoint {
  constructor(private readonly o: AccountOverviewOptions) {}

  /** The one route. */
  routes(): ChainRoute[] {
    return [
      {
        method: "GET",
        path: ACCOUNT_OVERVIEW_URL,
        feature: "mfa.account",
        access: "authenticated",
        name: "mfa.account-overview",
        description: "The signed-in user's address, factors, passkeys and open sessions",
        meta: { contract: { responses: { 200: jsonAnswer("The account's security", Overview) } } },
        handler: (x) => this.overview(x),
      },
    ];
  }

  private async overview(exchange: HttpExchange): Promise<void> {
    const who = currentAuthentication(exchange);
    if (!who) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    const account = await this.o.users.findById(who.userId);
    if (!account) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    const factors = await Promise.all(
      this.o.factors().map(async (f) => {
        const remaining = f.remaining ? await f.remaining(account.id) : undefined;
        return {
          type: f.type,
          label: f.label,
          kind: f.kind,
          enrolled: await f.enrolled(account.id),
          ...(remaining === undefined ? {} : { remaining }),
        };
      }),
    );
    const cookie = exchange.cookie(this.o.sessionCookie);
    const current = cookie === undefined ? undefined : sessionStoreHandle(cookie);
    const iso = (ms: number) => new Date(ms).toISOString();
    const sessions = (await this.o.sessions.listByUser(account.id)).map((s) => ({
      handle: s.handle,
      createdAt: iso(s.createdAt),
      lastAccessedAt: iso(s.lastAccessedAt),
      expiresAt: iso(s.expiresAt),
      current: s.handle === current,
    }));
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, {
      username: account.username,
      email: account.email ?? null,
      factors,
      passkeys: (await this.o.passkeys.listByUser(account.id)).map(passkeySummary),
      sessions,
    });
  }
}
