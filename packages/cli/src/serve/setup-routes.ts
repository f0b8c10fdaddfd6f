import type { RouteRegistry } from "@keyward/adapters-http";
import { csrfHiddenInput, type Platform } from "@keyward/core";
import { ErrorCatalog, isPlatformError, PlatformError } from "@keyward/core/errors";
import { Clock, KeyStore, UserRepository } from "@keyward/core/ports";
import type { HttpExchange } from "@keyward/core/web";
import { SETUP_PATH } from "../demo-security.js";
import { escapeHtml } from "../home-page.js";
import {
  anyAdministrator,
  checkNewAdministrator,
  createAdministrator,
  systemActor,
} from "./first-administrator.js";
import { SetupTokens } from "./setup-tokens.js";

/** The audit principal of an administrator made with the setup token. */
const SETUP_ACTOR = "system:setup-token";

/**
 * `GET /setup` (a form) and `POST /setup` (`{token, username, password}`, JSON or the form): spends
 * the store's one-time setup token and creates the first administrator. Public routes on whichever
 * session chain serves the path, so the chain's CSRF check guards the form post (and a JSON one).
 * Refused with 409 CONFLICT once the token was spent or, while it is live, once any administrator
 * exists; 401 INVALID_TOKEN for a wrong or expired token, or none (the same answer for all);
 * 400 VALIDATION_FAILED naming the field.
 */
export function addSetupRoutes(routes: RouteRegistry, platform: Platform): void {
  routes.add({
    method: "GET",
    path: SETUP_PATH,
    name: "setup.page",
    feature: "setup",
    access: "public",
    callerContext: false,
    description: "First administrator: the setup token form",
    handler: async (ex) => ex.html(200, await setupPage(ex, {})),
  });
  routes.add({
    method: "POST",
    path: SETUP_PATH,
    name: "setup.submit",
    feature: "setup",
    access: "public",
    callerContext: false,
    description: "First administrator: spend the setup token (token, username, password)",
    handler: async (ex) => {
      const form = /^application\/x-www-form-urlencoded\b/i.test(ex.header("content-type") ?? "");
      try {
        const created = await setUp(platform, await ex.fields());
        const user = { id: created.id, username: created.username, authorities: created.authorities };
        if (form) return ex.html(201, await setupPage(ex, { done: created.username }));
        return ex.json(201, { ok: true, user });
      } catch (error) {
        if (!form || !isPlatformError(error)) throw error;
        const status = platform.resolve(ErrorCatalog).statusOfError(error);
        if (status >= 500) throw error;
        ex.html(status, await setupPage(ex, { error: error.message }));
      }
    },
  });
}

/**
 * Reads the token's state first (one read: an anonymous caller never makes the server page through
 * the accounts unless a live token exists), checks the fields and the token (spending nothing),
 * creates the account, then spends the token (a race lost to another holder of the token takes the
 * account back): a refused name, password or address never spends it.
 */
async function setUp(platform: Platform, fields: Record<string, unknown>) {
  const clock = platform.resolve(Clock);
  const tokens = new SetupTokens({ store: platform.resolve(KeyStore), now: () => clock.now() });
  const state = await tokens.state();
  if (state === "spent" || (state === "live" && (await anyAdministrator(platform.resolve(UserRepository))))) {
    throw new PlatformError("CONFLICT", "Setup is complete: an administrator was made; sign in instead");
  }
  const token = fields.token;
  if (typeof token !== "string" || token.length === 0) {
    throw new PlatformError("VALIDATION_FAILED", "The request is invalid: token must be a non-empty string", {
      details: { issues: [{ path: "token", message: "must be a non-empty string" }] },
    });
  }
  const { username, password, email } = checkNewAdministrator(fields.username, fields.password, fields.email);
  const wrongToken = () => new PlatformError("INVALID_TOKEN", "The setup token is wrong, spent or expired");
  if (state !== "live" || !(await tokens.isLive(token))) throw wrongToken();
  // Only a caller holding the live token gets this far. The account first, then the token: whatever
  // refuses the account (a name taken, the store) leaves the token unspent; a token spent meanwhile by
  // a concurrent request (which held it too) takes this account back.
  const created = await createAdministrator(platform, {
    username,
    password,
    email,
    actor: systemActor(SETUP_ACTOR, clock.now()),
  });
  if (!(await tokens.spend(token))) {
    await platform.resolve(UserRepository).delete(created.id);
    throw wrongToken();
  }
  return created;
}

/** The setup page: the form, or what happened (every value escaped; no script, no inline style). */
async function setupPage(ex: HttpExchange, state: { error?: string; done?: string }): Promise<string> {
  const body =
    state.done !== undefined
      ? `<p id="done">Administrator <strong>${escapeHtml(state.done)}</strong> created. <a href="/login">Sign in</a>.</p>`
      : `${state.error === undefined ? "" : `<p role="alert" id="error">${escapeHtml(state.error)}</p>`}
<p>Enter the one-time setup token the server printed at its first start, and the first administrator's name and password.</p>
<form method="post" action="${SETUP_PATH}">${await csrfHiddenInput(ex)}
<label>Setup token <input name="token" autocomplete="off" required maxlength="128"></label>
<label>Username <input name="username" autocomplete="username" required maxlength="64"></label>
<label>Password <input name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="256"></label>
<label>E-mail address (optional; needed for the mailed sign-in code when mail goes out by SMTP) <input name="email" type="email" autocomplete="email" maxlength="254"></label>
<button type="submit">Create administrator</button>
</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Set up the first administrator</title></head>
<body><h1>First administrator</h1>
${body}
</body></html>`;
}
