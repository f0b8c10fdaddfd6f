import { HttpExchange, type HttpResponseState } from "../../web/http-exchange.js";
import { servedByIdentity } from "../identity-error-catalog.test-support.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { AsepAttributes } from "../asep/security-error-handling.js";
import { ExceptionTranslationFilter } from "../asep/exception-translation-filter.js";
import type { Authentication } from "../authentication/authentication.js";
import { SecurityFilterChain } from "../chain/security-filter-chain.js";
import { HttpSessionSecurityContextRepository } from "../context/http-session-security-context-repository.js";
import { SessionSavedRequest } from "../context/saved-request.js";
import { SecurityContextFilter } from "../context/security-context-filter.js";
import { CsrfFilter } from "../csrf/csrf-filter.js";
import { SessionCsrfTokenRepository } from "../csrf/session-csrf-token-repository.js";
import {
  SessionAuthenticationFailureHandler,
  SessionAuthenticationSuccessHandler,
} from "../handlers/session-handlers.js";
import { InMemorySessionStore } from "../session/in-memory-session-store.js";
import { SessionManager } from "../session/session-manager.js";
import { anyRequest } from "../../web/request-matcher.js";
import { createPasskeyRoutes, type PasskeyRoutesOptions } from "./create-passkey-routes.js";
import { RouteTable } from "../../web/route-table.js";
import { ChainRoutesFilter, declareChainRoutes } from "../chain/chain-route.js";
import { passkeyKit } from "./passkey-kit.test-support.js";

/** What a test request carries. */
export interface TestRequest {
  /** A JSON body (serialised, `content-type: application/json`). */
  json?: unknown;
  /** A raw body (with `headers` for its type). */
  body?: string;
  headers?: Record<string, string>;
  /** Leave out the CSRF header even when the browser holds a token. */
  noCsrf?: boolean;
  secure?: boolean;
}

/**
 * The passkey filters in a session chain as the identity module assembles one (exception translation,
 * session context, CSRF, the passkey filters), over the in-memory passkey kit, plus test browsers with
 * a cookie jar and the CSRF token of the last page they loaded.
 */
export async function passkeyHttpKit(filterOptions: Partial<PasskeyRoutesOptions> = {}) {
  const kit = await passkeyKit();
  const sessions = new SessionManager({
    store: new InMemorySessionStore({ clock: kit.clock }),
    clock: kit.clock,
    ids: kit.ids,
  });
  const csrfTokens = new SessionCsrfTokenRepository({ sessions, ids: kit.ids });
  const repository = new HttpSessionSecurityContextRepository(sessions, csrfTokens);
  const saved = new SessionSavedRequest(sessions);
  const table = new RouteTable();
  const chain = new SecurityFilterChain("passkey", 400, 0, anyRequest(), [
    new ExceptionTranslationFilter({
      handling: new AsepAttributes().toHandling(),
      loginPage: undefined,
      saveRequest: undefined,
      bearer: false,
    }),
    new SecurityContextFilter(repository, undefined),
    new CsrfFilter({ repository: csrfTokens }),
    new ChainRoutesFilter("passkey", table),
  ]);
  declareChainRoutes(
    table,
    "passkey",
    "entry",
    createPasskeyRoutes({
      service: kit.service,
      repository,
      successHandler: new SessionAuthenticationSuccessHandler(saved.take),
      failureHandler: new SessionAuthenticationFailureHandler(),
      context: {
        chainId: "passkey",
        loginPage: "/login",
        defaultSuccessUrl: undefined,
        alwaysUseDefaultSuccessUrl: false,
        failureUrl: undefined,
      },
      ...filterOptions,
    }),
  );

  async function handle(exchange: HttpExchange): Promise<HttpResponseState> {
    await chain.run(exchange, async () => {
      throw new PlatformError("NOT_FOUND", "No route");
    });
    return exchange.response;
  }

  /** A browser: cookie jar, CSRF token from the last page, JSON by default. */
  class Browser {
    readonly cookies = new Map<string, string>();
    csrf: string | undefined;

    async request(method: string, url: string, init: TestRequest = {}): Promise<HttpResponseState> {
      const headers: Record<string, string> = { accept: "application/json", ...init.headers };
      if (this.cookies.size > 0) {
        headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
      }
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers["content-type"] ??= "application/json";
      }
      if (this.csrf && !init.noCsrf && method !== "GET") headers["x-csrf-token"] = this.csrf;
      const exchange = servedByIdentity(
        new HttpExchange({
          method,
          url,
          headers,
          remoteAddress: "198.51.100.7",
          secure: init.secure ?? false,
          readBody: body === undefined ? undefined : async () => body,
        }),
      );
      const response = await handle(exchange);
      for (const c of response.cookies) {
        if (c.maxAge === 0) this.cookies.delete(c.name);
        else this.cookies.set(c.name, c.value);
      }
      return response;
    }

    /** Loads the passkey page and keeps its CSRF token; returns the HTML. */
    async loadPage(url = "/passkeys"): Promise<string> {
      const response = await this.request("GET", url, { headers: { accept: "text/html" } });
      const html = String(response.body);
      this.csrf = /<meta name="_csrf" content="([^"]+)">/.exec(html)?.[1];
      return html;
    }

    /** Signs in as `user` the way a password login would (a fresh session holding the authentication). */
    async signInAs(user: { id: string; username: string }): Promise<void> {
      const exchange = new HttpExchange({ method: "POST", url: "/login", headers: {}, remoteAddress: "x" });
      const authentication: Authentication = {
        userId: user.id,
        username: user.username,
        authorities: ["ROLE_USER"],
        method: "form",
        authenticatedAt: kit.clock.now(),
        factors: [{ type: "pwd", at: kit.clock.now() }],
      };
      await repository.save(exchange, authentication);
      for (const c of exchange.response.cookies) this.cookies.set(c.name, c.value);
      await this.loadPage();
    }
  }

  return { ...kit, sessions, repository, handle, browser: () => new Browser() };
}

/** The JSON body of a response, typed loosely for assertions. */
export function jsonOf(response: HttpResponseState): Record<string, unknown> & unknown[] {
  return response.body as Record<string, unknown> & unknown[];
}
