import { AccountRouteSource } from "../../identity/chain/account-route-source.js";
import { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import { SessionSavedRequest } from "../../identity/context/saved-request.js";
import { SessionManager } from "../../identity/session/session-manager.js";
import { SessionStore } from "../../identity/session/session-store.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { SignInHistoryStore } from "../adaptive/sign-in-history-store.js";
import { DeviceCookies } from "../device/device-cookies.js";
import { Factor } from "../factor-family/factor.js";
import { chainStepUpStarter } from "../step-up/fresh-second-factor.js";
import { AccountOverviewReader } from "./account-overview.js";
import { AccountOverviewEndpoint } from "./account-overview-endpoint.js";
import { AccountPageEndpoints } from "./account-page-endpoints.js";
import { AccountSessionEndpoints } from "./account-session-endpoints.js";
import { AccountSessions } from "./account-sessions.js";

/** Ending sessions needs a second factor proved this recently (as enrolling a factor). */
export const ACCOUNT_SESSIONS_STEP_UP_MAX_AGE_MS = 5 * 60_000;

/**
 * The signed-in user's account on every chain, over the platform's ports and the whole factor
 * family: `GET /api/account`, ending sessions (`/api/account/sessions/**`), and the `/account` page
 * with its forms.
 */
export function registerAccount(ctx: PluginContext): void {
  ctx.registerMember(AccountRouteSource, {
    useFactory: (c) => {
      const sessionManager = c.resolve(SessionManager);
      const sessionCookie = sessionManager.cookieName;
      const reader = new AccountOverviewReader({
        users: c.resolve(UserRepository),
        factors: () => c.resolveAll(Factor),
        passkeys: c.resolve(PasskeyCredentialRepository),
        sessions: c.resolve(SessionStore),
        sessionCookie,
        history: c.resolve(SignInHistoryStore),
        devices: c.resolve(DeviceCookies),
      });
      const sessions = new AccountSessions({
        sessions: c.resolve(SessionStore),
        sessionCookie,
        audit: c.resolve(AuditSink),
        clock: c.resolve(Clock),
        stepUpMaxAgeMs: ACCOUNT_SESSIONS_STEP_UP_MAX_AGE_MS,
        startStepUp: chainStepUpStarter(c),
      });
      const routes = [
        ...new AccountOverviewEndpoint(reader).routes(),
        ...new AccountSessionEndpoints(sessions).routes(),
        ...new AccountPageEndpoints(reader, sessions, (exchange, url) =>
          new SessionSavedRequest(sessionManager).saveStepUpReturn(exchange, url, false),
        ).routes(),
      ];
      return { id: "mfa-account", routes: () => routes };
    },
  });
}
