import { z } from "zod";
import { currentAuthentication } from "../../identity/authentication/authentication.js";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import { csrfHiddenInput, csrfMetaTags } from "../../identity/csrf/csrf-html.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { AccountOverviewReader } from "./account-overview.js";
import { type AccountPageModel, renderAccountPage } from "./account-page.js";
import type { AccountSessions } from "./account-sessions.js";

/** The account page. */
export const ACCOUNT_PAGE_PATH = "/account";
/** Where the page's forms post (`/end` with a `handle`, `/end-others`). */
const PAGE_SESSIONS_URL = `${ACCOUNT_PAGE_PATH}/sessions`;

/** What a form's outcome shows on the page it redirects back to (the `done` query parameter). */
type Notice = NonNullable<AccountPageModel["notice"]>;
const NOTICES: ReadonlySet<string> = new Set<Notice>(["ended", "ended-others", "not-found", "current"]);

const FORM_ERRORS = ["MFA_CHALLENGE_REQUIRED", "VALIDATION_FAILED"];
const CONTRACTS = {
  page: { responses: { 200: { description: "The account page", media: "html" } } },
  endOne: {
    body: { schema: z.looseObject({ handle: z.string().max(64) }), media: ["form", "json"] },
    responses: { 303: { description: "Back to the account page, which says what happened", media: "none" } },
    errors: FORM_ERRORS,
  },
  endOthers: {
    body: { schema: z.looseObject({}), media: ["form", "json"], required: false },
    responses: { 303: { description: "Back to the account page", media: "none" } },
    errors: ["MFA_CHALLENGE_REQUIRED"],
  },
} satisfies Record<string, RouteContract>;

/**
 * The built-in account page (`GET /account`: factors, recovery codes left, passkeys, open sessions
 * and devices) and its two forms (`POST /account/sessions/end` with `handle`,
 * `POST /account/sessions/end-others`; CSRF on a session chain). A form answers 303 back to the
 * page, which says what happened; a stale second factor sends the browser to the step-up (303 to
 * its `mfaUrl`), whose completion brings the browser back to the page to submit again. No script on the page.
 */
export class AccountPageEndpoints {
  /**
   * @param returnHere remembers, in the caller's session, that the step-up a form started should
   *   bring the browser back to the page (the step-up's completion takes it)
   */
  constructor(
    private readonly reader: AccountOverviewReader,
    private readonly sessions: AccountSessions,
    private readonly returnHere: (exchange: HttpExchange, url: string) => Promise<void>,
  ) {}

  /** The page and its two forms. */
  routes(): ChainRoute[] {
    const common = { feature: "mfa.account", access: "authenticated" } as const;
    return [
      {
        ...common,
        method: "GET",
        path: ACCOUNT_PAGE_PATH,
        name: "mfa.account-page",
        description: "The account page: factors, passkeys, sessions and devices",
        meta: { contract: CONTRACTS.page },
        handler: (x) => this.page(x),
      },
      {
        ...common,
        method: "POST",
        path: `${PAGE_SESSIONS_URL}/end`,
        name: "mfa.account-page-session-end",
        description: "The account page's form that ends one other session",
        meta: { contract: CONTRACTS.endOne },
        handler: (x) => this.form(x, async () => this.sessions.endOne(x, (await x.fields()).handle), "ended"),
      },
      {
        ...common,
        method: "POST",
        path: `${PAGE_SESSIONS_URL}/end-others`,
        name: "mfa.account-page-sessions-end-others",
        description: "The account page's form that ends every other session",
        meta: { contract: CONTRACTS.endOthers },
        handler: (x) => this.form(x, () => this.sessions.endOthers(x), "ended-others"),
      },
    ];
  }

  private async page(exchange: HttpExchange): Promise<void> {
    const overview = await this.reader.read(exchange, currentAuthentication(exchange));
    const done = exchange.query.get("done") ?? "";
    exchange.response.headers.set("cache-control", "no-store");
    exchange.html(
      200,
      renderAccountPage({
        overview,
        csrfMeta: await csrfMetaTags(exchange),
        csrfInput: await csrfHiddenInput(exchange),
        sessionsUrl: PAGE_SESSIONS_URL,
        notice: NOTICES.has(done) ? (done as Notice) : undefined,
      }),
    );
  }

  /** Runs a form's action and sends the browser back to the page with its outcome. */
  private async form(exchange: HttpExchange, action: () => Promise<unknown>, done: Notice): Promise<void> {
    try {
      await action();
    } catch (error) {
      const outcome = isPlatformError(error, "NOT_FOUND")
        ? "not-found"
        : isPlatformError(error, "SESSION_IS_CURRENT")
          ? "current"
          : undefined;
      const mfaUrl = isPlatformError(error, "MFA_CHALLENGE_REQUIRED") ? error.details?.mfaUrl : undefined;
      if (outcome !== undefined) return exchange.redirect(`${ACCOUNT_PAGE_PATH}?done=${outcome}`, 303);
      if (typeof mfaUrl === "string" && !exchange.wantsJson()) {
        await this.returnHere(exchange, ACCOUNT_PAGE_PATH);
        return exchange.redirect(mfaUrl, 303);
      }
      throw error;
    }
    exchange.redirect(`${ACCOUNT_PAGE_PATH}?done=${done}`, 303);
  }
}
