import { FilterChainProxy } from "@keyward/core/identity";
import { RouteTable } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type IdentityTestServer, startIdentityServer } from "./identity-test-server.js";

/** The token answer of an `.oauth2()` login. */
interface TokenBody {
  accessToken: string;
  refreshToken: string;
  [field: string]: unknown;
}

describe("handler and repository selection by state type", () => {
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startIdentityServer({
      security: (r) =>
        r
          .rest((rest) =>
            rest
              .loginProcessingUrl("/session-api/login")
              .rawHttp((h) => h.securityMatcher("/session-api/**", "/csrf")),
          )
          .session()
          .rest((rest) => rest.rawHttp((h) => h.securityMatcher("/api/**")))
          .oauth2()
          .build(),
    });
  });
  afterAll(() => s.close());

  it("assembles session chains with CSRF and the session context, token chains stateless", () => {
    const [sessionChain, tokenChain] = s.platform.resolve(FilterChainProxy).chains;
    expect(sessionChain!.id).toBe("rest");
    expect(sessionChain!.filterNames()).toEqual([
      "headers",
      "exception-translation",
      "security-context",
      "csrf",
      "entry-points",
      "authorization",
    ]);
    expect(tokenChain!.id).toBe("rest_2");
    expect(tokenChain!.filterNames()).toEqual([
      "headers",
      "exception-translation",
      "security-context",
      "entry-points",
      "authorization",
    ]);
  });

  it("declares each chain's entry points in the route table under its id: logout, login, tokens, /api/me", () => {
    const routes = (chain: string) =>
      s.platform
        .resolve(RouteTable)
        .list()
        .filter((r) => r.chain === chain)
        .map((r) => `${r.method} ${r.path} ${r.name} ${r.stage}`);
    // Every chain also serves the account routes features contribute (AccountRouteSource members).
    const account = [
      "POST /api/password/forgot identity.password-forgot entry",
      "GET /forgot-password identity.password-forgot.page entry",
      "HEAD /forgot-password identity.password-forgot.page entry",
      "POST /forgot-password identity.password-forgot.page-submit entry",
      "ANY /forgot-password identity.password-forgot.page-other entry",
      "PUT /api/account/email mfa.email-change entry",
      "GET /verify-email mfa.email-verify-page entry",
      "HEAD /verify-email mfa.email-verify-page entry",
      "POST /verify-email mfa.email-verify entry",
      "GET /api/account mfa.account-overview entry",
      "DELETE /api/account/sessions/* mfa.account-session-end entry",
      "POST /api/account/sessions/end-others mfa.account-sessions-end-others entry",
      "GET /account mfa.account-page entry",
      "POST /account/sessions/end mfa.account-page-session-end entry",
      "POST /account/sessions/end-others mfa.account-page-sessions-end-others entry",
    ];
    expect(routes("rest")).toEqual([
      "POST /api/logout identity.logout entry",
      "POST /session-api/login identity.rest.login entry",
      "GET /api/me identity.me entry",
      ...account,
    ]);
    expect(routes("rest_2")).toEqual([
      "POST /api/logout identity.logout entry",
      "POST /api/login identity.rest.login entry",
      "POST /api/token/refresh identity.token-refresh entry",
      "POST /api/token/revoke identity.token-revoke entry",
      "GET /api/me identity.me entry",
      ...account,
    ]);
  });

  it("REST + .session(): JSON login needs the CSRF token, rotates the session and answers {success, redirectUrl}", async () => {
    const b = new Browser(s.url);
    const refused = await b.postJson("/session-api/login", { username: "user", password: "password" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "CSRF_TOKEN_INVALID" });
    const { token } = (await (await b.fetch("/csrf")).json()) as { token: string };
    const before = b.cookies.get("PLATFORM_SESSION");
    const ok = await b.postJson(
      "/session-api/login",
      { username: "user", password: "password" },
      { "x-csrf-token": token },
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, redirectUrl: "/" });
    expect(b.cookies.get("PLATFORM_SESSION")).toBeDefined();
    expect(b.cookies.get("PLATFORM_SESSION")).not.toBe(before);
  });

  it("REST + .oauth2(): no session cookie, tokens in the body", async () => {
    const b = new Browser(s.url);
    const res = await b.postJson("/api/login", { username: "user", password: "password" });
    expect(res.status).toBe(200);
    expect(b.cookies.size).toBe(0);
    expect(Object.keys((await res.json()) as TokenBody).sort()).toEqual(
      [
        "accessToken",
        "expiresIn",
        "redirectUrl",
        "refreshExpiresIn",
        "refreshToken",
        "success",
        "tokenType",
      ].sort(),
    );
  });
});
