import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { currentAuthentication, setCurrentAuthentication } from "../authentication/authentication.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { isBearerAuthenticated } from "../context/security-context-filter.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import { bearerTokenOf } from "./bearer-token.js";
import { IDENTITY_CONTRACTS } from "../identity-contracts.js";

/** Revokes a client's tokens at logout (the token service of `.oauth2()` chains). */
export interface TokenRevoker {
  revoke(tokens: { refreshToken?: string; accessToken?: string }): Promise<unknown>;
}

/**
 * `POST <url>`: on token chains revokes the presented refresh token's family and the access token
 * with its whole sign-in (family); on any other chain a bearer caller's access token and sign-in;
 * clears the context (a session is invalidated and its cookie cleared); ends what the caller left
 * pending (its MFA flow and escalation, with their cookies); then answers JSON
 * `{ success: true, redirectUrl }` or redirects to the logout landing page.
 */
export class LogoutEndpoint {
  constructor(
    private readonly options: {
      url: string;
      successUrl: string;
      repository: SecurityContextRepository;
      tokens: TokenRevoker | undefined;
      /** Revokes a bearer caller's token and sign-in on chains without `tokens` (the token service). */
      revokeBearer?: TokenRevoker;
      /** Ends what the caller's sign-in left pending elsewhere (MFA flows, escalations). */
      onLogout?: (exchange: HttpExchange) => Promise<void>;
      audit: AuditSink;
    },
  ) {}

  /** `POST <url>`. */
  routes(): ChainRoute[] {
    return [
      {
        method: "POST",
        path: this.options.url,
        name: "identity.logout",
        meta: { contract: IDENTITY_CONTRACTS.logout },
        description: "Signs the caller out: clears the context, revokes tokens, ends pending flows",
        feature: "identity",
        access: "public",
        handler: (exchange) => this.handle(exchange),
      },
    ];
  }

  /** Signs the caller out and answers JSON or a redirect. */
  async handle(exchange: HttpExchange): Promise<void> {
    const o = this.options;
    const who = currentAuthentication(exchange);
    if (o.tokens) {
      // Validate the whole request before changing anything: bad input revokes nothing.
      const refreshToken = optionalToken((await exchange.fields(["json", "form"])).refreshToken);
      await o.tokens.revoke({ refreshToken, accessToken: bearerTokenOf(exchange) });
    } else if (o.revokeBearer && isBearerAuthenticated(exchange)) {
      await o.revokeBearer.revoke({ accessToken: bearerTokenOf(exchange) });
    }
    await o.repository.clear(exchange);
    // After the sign-in itself has ended: whatever happens here, the session and tokens are gone.
    await o.onLogout?.(exchange);
    setCurrentAuthentication(exchange, undefined);
    o.audit.record({
      type: "auth.logout",
      principal: who?.username,
      outcome: "success",
      remoteAddress: exchange.remoteAddress,
    });
    if (exchange.wantsJson() || o.tokens) exchange.json(200, { success: true, redirectUrl: o.successUrl });
    else exchange.redirect(o.successUrl);
  }
}

/** A `refreshToken` field: absent, or a string of at most 512 characters; anything else is a 400. */
export function optionalToken(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || value.length > 512) {
    throw new PlatformError("VALIDATION_FAILED", "refreshToken must be a string", {
      details: { fields: ["refreshToken"] },
    });
  }
  return value;
}
