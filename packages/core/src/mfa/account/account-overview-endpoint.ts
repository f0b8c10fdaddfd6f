import { currentAuthentication } from "../../identity/authentication/authentication.js";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { AccountOverviewSchema, type AccountOverviewReader } from "./account-overview.js";

/** Where the signed-in user reads their account's security. */
export const ACCOUNT_OVERVIEW_URL = "/api/account";

/**
 * `GET /api/account`: the signed-in user's account security in one answer (see
 * {@link AccountOverviewReader}). Read-only, `no-store`.
 */
export class AccountOverviewEndpoint {
  constructor(private readonly reader: AccountOverviewReader) {}

  /** The one route. */
  routes(): ChainRoute[] {
    return [
      {
        method: "GET",
        path: ACCOUNT_OVERVIEW_URL,
        feature: "mfa.account",
        access: "authenticated",
        name: "mfa.account-overview",
        description: "The signed-in user's address, factors, passkeys, open sessions and devices",
        meta: {
          contract: { responses: { 200: jsonAnswer("The account's security", AccountOverviewSchema) } },
        },
        handler: (x) => this.overview(x),
      },
    ];
  }

  private async overview(exchange: HttpExchange): Promise<void> {
    const overview = await this.reader.read(exchange, currentAuthentication(exchange));
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, overview);
  }
}
