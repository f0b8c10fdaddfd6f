import { z } from "zod";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { AccountSessions } from "./account-sessions.js";
import { ACCOUNT_OVERVIEW_URL } from "./account-overview-endpoint.js";

/** Where the signed-in user's sessions are ended (`/{handle}`, `/end-others`). */
export const ACCOUNT_SESSIONS_URL = `${ACCOUNT_OVERVIEW_URL}/sessions`;

const CONTRACTS = {
  endOne: {
    responses: { 204: { description: "The session was ended", media: "none" } },
    errors: ["MFA_CHALLENGE_REQUIRED", "VALIDATION_FAILED", "SESSION_IS_CURRENT", "NOT_FOUND"],
  },
  endOthers: {
    body: { schema: z.looseObject({}), media: ["json"], required: false },
    responses: {
      200: jsonAnswer("Every other session was ended", z.object({ ended: z.number().int() })),
    },
    errors: ["MFA_CHALLENGE_REQUIRED"],
  },
} satisfies Record<string, RouteContract>;

/**
 * The JSON side of ending sessions: `DELETE /api/account/sessions/{handle}` (204) and
 * `POST /api/account/sessions/end-others` (200 `{ ended }`); see {@link AccountSessions}.
 */
export class AccountSessionEndpoints {
  constructor(private readonly sessions: AccountSessions) {}

  /** The two routes. */
  routes(): ChainRoute[] {
    const common = { feature: "mfa.account", access: "authenticated" } as const;
    return [
      {
        ...common,
        method: "DELETE",
        path: `${ACCOUNT_SESSIONS_URL}/*`,
        name: "mfa.account-session-end",
        description: "Ends one of the signed-in user's other sessions, by its handle",
        meta: { contract: CONTRACTS.endOne },
        handler: (x, p) => this.endOne(x, p["*"]),
      },
      {
        ...common,
        method: "POST",
        path: `${ACCOUNT_SESSIONS_URL}/end-others`,
        name: "mfa.account-sessions-end-others",
        description: "Ends every session of the signed-in user but the one in use",
        meta: { contract: CONTRACTS.endOthers },
        handler: (x) => this.endOthers(x),
      },
    ];
  }

  private async endOne(exchange: HttpExchange, handle: string | undefined): Promise<void> {
    await this.sessions.endOne(exchange, handle);
    exchange.response.headers.set("cache-control", "no-store");
    exchange.response.status = 204;
  }

  private async endOthers(exchange: HttpExchange): Promise<void> {
    const ended = await this.sessions.endOthers(exchange);
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, { ended });
  }
}
