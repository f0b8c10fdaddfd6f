import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { bearerTokenOf } from "./bearer-token.js";
import { optionalToken, type TokenRevoker } from "./logout-filter.js";

/** Rotates a refresh token into a new pair (the token service of `.oauth2()`). */
export interface TokenRefresher {
  refresh(
    refreshToken: string,
  ): Promise<{ accessToken: string; refreshToken: string; tokenType: "Bearer"; expiresIn: number }>;
}

/**
 * The token endpoints of an `.oauth2()` chain: `POST <refreshUrl>` `{ refreshToken }` answers a new
 * pair (the old refresh token is spent; reusing it revokes the family), and `POST <revokeUrl>`
 * `{ refreshToken }` (with the access token as bearer, optionally) revokes them.
 */
export class TokenEndpointsFilter implements SecurityFilter {
  readonly name = "token-endpoints";

  constructor(
    private readonly options: {
      refreshUrl: string;
      revokeUrl: string;
      tokens: TokenRefresher & TokenRevoker;
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
}
