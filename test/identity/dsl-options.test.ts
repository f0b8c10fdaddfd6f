import type { AuthenticationSuccessHandler, SecurityFilter } from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type IdentityTestServer, startIdentityServer } from "./identity-test-server.js";

const stamp: SecurityFilter = {
  name: "stamp",
  filter: async (ex, next) => {
    ex.response.headers.set("x-stamp", "before-authorization");
    await next();
  },
};

const welcome: AuthenticationSuccessHandler = {
  onSuccess: async (ex, authentication) => ex.json(200, { welcome: authentication.username }),
};

describe("DSL options over HTTP", () => {
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startIdentityServer({
      security: (r) =>
        r
          .rest((rest) =>
            rest
              .order(10)
              .rawHttp((h) => h.securityMatcher("/api/**"))
              .rawHttp((h) =>
                h.authorizeHttpRequests((a) =>
                  a.requestMatchers("/api/login").permitAll().anyRequest().authenticated(),
                ),
              )
              .asep((a) =>
                a.handler({
                  errorCodes: ["AUTHENTICATION_REQUIRED"],
                  parameters: ["error", "header:x-client"],
                  handle: (error, client) => ({
                    status: 401,
                    body: { api: "please sign in", code: (error as { code: string }).code, client },
                  }),
                }),
              ),
          )
          .oauth2()
          .form((form) =>
            form
              .loginPage("/signin")
              .loginProcessingUrl("/signin")
              .permitAll()
              .successHandler(welcome)
              .cors({ allowedOrigins: ["https://app.example.com"], allowCredentials: true })
              .rawFormLogin((internals) => {
                internals.usernameParameter = "email";
              })
              .rawHttp((h) =>
                h
                  .addFilterBefore(stamp, "authorization")
                  .authorizeHttpRequests((a) =>
                    a
                      .requestMatchers("/admin/**")
                      .hasRole("ADMIN")
                      .requestMatchers("/private/**")
                      .authenticated(),
                  ),
              ),
          )
          .session()
          .build(),
      routes: (routes) =>
        routes.add({ method: "GET", path: "/admin/panel", handler: () => ({ panel: true }) }),
    });
  });
  afterAll(() => s.close());

  it("changes one chain's failure body through its ASEP handler, and not the other's", async () => {
    const b = new Browser(s.url);
    const api = await b.fetch("/api/data", { headers: { accept: "application/json", "x-client": "spa" } });
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({
      api: "please sign in",
      code: "AUTHENTICATION_REQUIRED",
      client: "spa",
    });
    const page = await b.fetch("/private/data", { headers: { accept: "application/json" } });
    expect(page.status).toBe(401);
    expect(await page.json()).toEqual({
      code: "AUTHENTICATION_REQUIRED",
      message: "Authentication required",
    });
  });

  it("sends browsers to the custom login page and generates none", async () => {
    const b = new Browser(s.url);
    const res = await b.fetch("/private/data", { headers: { accept: "text/html" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/signin");
    expect((await b.fetch("/login")).status).toBe(404);
  });

  it("uses the rawFormLogin parameter name, the custom success handler and the added filter", async () => {
    const b = new Browser(s.url);
    await b.fetch("/private/data", { headers: { accept: "text/html" } });
    const csrf = await readSessionCsrf(b);
    const res = await b.postForm("/signin", { email: "admin", password: "admin", _csrf: csrf });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ welcome: "admin" });
    const admin = await b.fetch("/admin/panel", { headers: { accept: "application/json" } });
    expect(admin.status).toBe(200);
    expect(admin.headers.get("x-stamp")).toBe("before-authorization");
  });

  it("applies static rules: 401 anonymous, 403 without the role", async () => {
    const b = new Browser(s.url);
    expect((await b.fetch("/admin/panel", { headers: { accept: "application/json" } })).status).toBe(401);
    await b.fetch("/private/data", { headers: { accept: "text/html" } });
    const csrf = await readSessionCsrf(b);
    await b.postForm("/signin", { email: "user", password: "password", _csrf: csrf });
    const denied = await b.fetch("/admin/panel", { headers: { accept: "application/json" } });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: "ACCESS_DENIED" });
    expect(await (await b.fetch("/private/data")).json()).toEqual({ user: "user" });
  });

  it("answers CORS for the configured origin only", async () => {
    const b = new Browser(s.url);
    const ok = await b.fetch("/signin", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(ok.headers.get("access-control-allow-credentials")).toBe("true");
    const evil = await b.fetch("/signin", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com.evil.test", "access-control-request-method": "POST" },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });
});

/** The CSRF token of the browser's session (the test server's `GET /csrf` route; the custom login page is the host's). */
async function readSessionCsrf(b: Browser): Promise<string> {
  const res = await b.fetch("/csrf");
  const body = (await res.json()) as { token: string };
  return body.token;
}
