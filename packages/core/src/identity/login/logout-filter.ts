import type { AuditSink } from "../../kernel/audit-sink.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { currentAuthentication, setCurrentAuthentication } from "../authentication/authentication.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import { bearerTokenOf } from "./bearer-token.js";

/** Revokes a client's tokens at logout (the token service of `.oauth2()` chains). */
export interface TokenRevoker {
  revoke(tokens: { refreshToken?: string; accessToken?: string }): Promise<unknown>;
}

/**
 * `POST <url>`: clears the context (a session is invalidated and its cookie cleared), revokes the
 * presented refresh token's family and the access token's jti on token chains, then answers JSON
 * `{ success: true, redirectUrl }` or redirects to the logout landing page.
 */
export class LogoutFilter implements SecurityFilter {
  readonly name = "logout";

  constructor(
    private readonly options: {
      url: string;
      successUrl: string;
      repository: SecurityContextRepository;
      tokens: TokenRevoker | undefined;
      audit: AuditSink;
    },
  ) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const o = this.options;
    if (exchange.path !== o.url || exchange.method !== "POST") return next();
    const who = currentAuthentication(exchange);
    if (o.tokens) {
      const fields = await exchange.fields(["json", "form"]).catch(() => ({}) as Record<string, unknown>);
      const refreshToken = typeof fields.refreshToken === "string" ? fields.refreshToken : undefined;
      await o.tokens.revoke({ refreshToken, accessToken: bearerTokenOf(exchange) });
    }
    await o.repository.clear(exchange);
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
