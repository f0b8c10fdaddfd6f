import { AccountRouteSource } from "../../identity/chain/account-route-source.js";
import { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import { SessionManager } from "../../identity/session/session-manager.js";
import { SessionStore } from "../../identity/session/session-store.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { Factor } from "../factor-family/factor.js";
import { AccountOverviewEndpoint } from "./account-overview-endpoint.js";

/** `GET /api/account` on every chain, over the platform's ports and the whole factor family. */
export function registerAccountOverview(ctx: PluginContext): void {
  ctx.registerMember(AccountRouteSource, {
    useFactory: (c) => {
      const endpoint = new AccountOverviewEndpoint({
        users: c.resolve(UserRepository),
        factors: () => c.resolveAll(Factor),
        passkeys: c.resolve(PasskeyCredentialRepository),
        sessions: c.resolve(SessionStore),
        sessionCookie: c.resolve(SessionManager).cookieName,
      });
      return { id: "mfa-account-overview", routes: () => endpoint.routes() };
    },
  });
}
