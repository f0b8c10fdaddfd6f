import { PlatformError } from "../../kernel/platform-error.js";
import { isClientError } from "../../web/exchange-error-catalog.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { bearerTokenOf } from "./bearer-token.js";
import { optionalToken, type TokenRevoker } from "./logout-endpoint.js";
import { IDENTITY_CONTRACTS, TokenRefreshBody } from "../identity-contracts.js";

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
export class TokenEndpoints {
  constructor(
    private readonly options: {
      refreshUrl: string;
      revokeUrl: string;
      tokens: TokenRefresher & TokenRevoker;
      /** The SubjectStatusCheck family (none: every refresh goes on). */
      statusCheck?: SubjectStatusGate;
    },
  ) {}

  /** `POST <refreshUrl>` and `POST <revokeUrl>`. */
  routes(): ChainRoute[] {
    const common = { method: "POST", feature: "identity.oauth2", access: "public" } as const;
    return [
      {
        ...common,
        path: this.options.refreshUrl,
        name: "identity.token-refresh",
        meta: { contract: IDENTITY_CONTRACTS.refresh },
        description: "Rotates a refresh token into a new access/refresh pair",
        handler: (exchange) => this.refresh(exchange),
      },
      {
        ...common,
        path: this.options.revokeUrl,
        name: "identity.token-revoke",
        meta: { contract: IDENTITY_CONTRACTS.revoke },
        description: "Revokes a refresh token's family and the presented access token",
        handler: (exchange) => this.revoke(exchange),
      },
    ];
  }

  /** `POST <refreshUrl>` `{ refreshToken }`: a new pair. */
  async refresh(exchange: HttpExchange): Promise<void> {
    const { tokens } = this.options;
    // The documented body schema is the check (a string of 1 to 512 characters).
    const parsed = TokenRefreshBody.safeParse({ refreshToken: await this.refreshTokenField(exchange) });
    if (!parsed.success) {
      throw new PlatformError("VALIDATION_FAILED", "refreshToken is required", {
        details: { fields: ["refreshToken"] },
      });
    }
    const { refreshToken } = parsed.data;
    await this.checkOwner(exchange, refreshToken);
    const pair = await tokens.refresh(refreshToken);
    exchange.json(200, { success: true, ...pair });
  }

  /** `POST <revokeUrl>` `{ refreshToken }` and/or a bearer access token: revokes them. */
  async revoke(exchange: HttpExchange): Promise<void> {
    const { tokens } = this.options;
    const refreshToken = await this.refreshTokenField(exchange);
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

  private async refreshTokenField(exchange: HttpExchange): Promise<unknown> {
    const fields = await exchange.fields(["json"]);
    exchange.response.headers.set("cache-control", "no-store");
    return fields.refreshToken;
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
      if (isClientError(error, exchange)) {
        await tokens.revoke({ refreshToken });
      }
      throw error;
    }
  }
}
