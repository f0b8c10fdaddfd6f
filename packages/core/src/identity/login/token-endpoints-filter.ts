import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { statusForCode } from "../../web/error-codes.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { bearerTokenOf } from "./bearer-token.js";
import { optionalToken, type TokenRevoker } from "./logout-filter.js";

/** Rotates a refresh token into a new pair (the token service of `.oauth2()`). */
export interface TokenRefresher {
  refresh(
    refreshToken: string,
  ): Promise<{ accessToken: string; refreshToken: string; tokenType: "Bearer"; expiresIn: number }>;
  /** The sign-in a live (not revoked) refresh token carries, without spending it; undefined otherwise. */
  refreshTokenOwner(refreshToken: string): Promise<Authentication | undefined>;
}

/**
 * The token endpoints of an `.oauth2()` chain: `POST <refreshUrl>` `{ refreshToken }` answers a new
 * pair (the old refresh token is spent; reusing it revokes the family), and `POST <revokeUrl>`
 * `{ refreshToken }` (with the access token as bearer, optionally) revokes them. Before a refresh
 * spends anything the `token-refresh` checkpoint asks about the token's user; a refusal (e.g. 403
 * ZERO_TRUST_BLOCKED) revokes the token's family, so a refresh token held by whoever was blocked
 * cannot outlive the block: the client signs in again once it is allowed.
 */
export class TokenEndpointsFilter implements SecurityFilter {
  readonly name = "token-endpoints";

  constructor(
    private readonly options: {
      refreshUrl: string;
      revokeUrl: string;
      tokens: TokenRefresher & TokenRevoker;
      /** The SubjectStatusCheck family (none: every refresh goes on). */
      statusCheck?: SubjectStatusGate;
    },
  ) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const { refreshUrl, revokeUrl, tokens } = this.options;
    if (exchange.method !== "POST" || (exchange.path !== refreshUrl && exchange.path !== revokeUrl))
      return next();
    const fields = await exchange.fields(["json"]);
    const refreshToken = fields.refreshToken;
    exchange.response.headers.set("cache-control", "no-store");
    if (exchange.path === refreshUrl) {
      if (typeof refreshToken !== "string" || refreshToken.length === 0 || refreshToken.length > 512) {
        throw new PlatformError("VALIDATION_FAILED", "refreshToken is required", {
          details: { fields: ["refreshToken"] },
        });
      }
      await this.checkOwner(exchange, refreshToken);
      const pair = await tokens.refresh(refreshToken);
      exchange.json(200, { success: true, ...pair });
      return;
    }
    const presented = optionalToken(refreshToken);
    const accessToken = bearerTokenOf(exchange);
    if (presented === undefined && accessToken === undefined) {
      throw new PlatformError("VALIDATION_FAILED", "refreshToken or a bearer access token is required", {
        details: { fields: ["refreshToken"] },
      });
    }
    await tokens.revoke({ refreshToken: presented, accessToken });
    exchange.json(200, { success: true });
  }

  private async checkOwner(exchange: HttpExchange, refreshToken: string): Promise<void> {
    const { statusCheck, tokens } = this.options;
    if (!statusCheck) return;
    const owner = await tokens.refreshTokenOwner(refreshToken);
    // Unknown, expired or revoked tokens go on to `refresh`, which refuses them as before.
    if (!owner) return;
    try {
      await statusCheck({ checkpoint: "token-refresh", authentication: owner, exchange });
    } catch (error) {
      if (isPlatformError(error) && (error.status ?? statusForCode(error.code)) < 500) {
        await tokens.revoke({ refreshToken });
      }
      throw error;
    }
  }
}
