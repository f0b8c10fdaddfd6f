import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  OneTimeTokenGenerationSuccessHandler,
} from "@keyward/core";
import { type OneTimeToken, OneTimeTokenService } from "@keyward/core/ports";
import type { HttpExchange } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryOneTimeTokenService } from "../../packages/core/src/identity/ott/in-memory-one-time-token-service.js";
import { Browser, type IdentityTestServer, startIdentityServer } from "./identity-test-server.js";

/** A host token service: the built-in in-memory one, counting what passes through it. */
class CountingTokenService implements OneTimeTokenService {
  generated = 0;
  consumed = 0;
  private readonly inner = new InMemoryOneTimeTokenService({
    clock: new SystemClock(),
    ids: new CryptoIdGenerator(),
  });
  async generate(request: { username: string }): Promise<OneTimeToken> {
    this.generated++;
    return this.inner.generate(request);
  }
  async consume(request: { tokenValue: string }): Promise<OneTimeToken | undefined> {
    const token = await this.inner.consume(request);
    if (token) this.consumed++;
    return token;
  }
  revokeAllFor(username: string): Promise<void> {
    return this.inner.revokeAllFor(username);
  }
}

/** A generation handler that answers the link itself (a test double for a mailer). */
class LinkAnsweringHandler implements OneTimeTokenGenerationSuccessHandler {
  readonly seen: { path: string; username: string }[] = [];
  async handle(exchange: HttpExchange, token: OneTimeToken) {
    this.seen.push({ path: exchange.path, username: token.username });
    exchange.json(200, { link: `/magic?token=${token.getTokenValue()}` });
  }
  async acknowledge(exchange: HttpExchange) {
    exchange.json(200, { link: null });
  }
}

const welcome: AuthenticationSuccessHandler = {
  onSuccess: async (ex, a) => ex.json(200, { welcome: a.username, method: a.method }),
};
const teapot: AuthenticationFailureHandler = {
  onFailure: async (ex, error) => ex.json(418, { refused: error.code }),
};

/** Waits for the n-th line of the outbox file (the delivery appends one per token, just after the answer). */
async function tokenAt(file: string, n: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const line = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean)[n - 1] : undefined;
    if (line) return (JSON.parse(line) as { token: string }).token;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no outbox line ${n} in ${file}`);
}

const json = { accept: "application/json" };

describe("OTT options: URLs, token service, handlers, order, rawHttp, asep", () => {
  let s: IdentityTestServer;
  const service = new CountingTokenService();
  const links = new LinkAnsweringHandler();
  beforeAll(async () => {
    s = await startIdentityServer({
      security: (r) =>
        r
          .form((f) => f.defaultSuccessUrl("/")) // no matcher: every request, at order 100
          .session()
          .ott((o) =>
            o
              .order(50)
              .tokenGeneratingUrl("/magic/generate")
              .defaultSubmitPageUrl("/magic")
              .loginProcessingUrl("/magic/login")
              .tokenService(service)
              .tokenGenerationSuccessHandler(links)
              .successHandler(welcome)
              .failureHandler(teapot)
              .asep((a) =>
                a.handler({
                  errorCodes: ["CSRF_TOKEN_INVALID"],
                  parameters: ["error"],
                  handle: (error) => ({
                    status: 403,
                    body: { magic: "reload", code: (error as { code: string }).code },
                  }),
                }),
              )
              .rawHttp((h) => h.securityMatcher("/magic", "/magic/**")),
          )
          .session()
          .build(),
    });
  });
  afterAll(() => s.close());

  it("serves the page at defaultSubmitPageUrl, posting to the custom generation and login URLs", async () => {
    const b = new Browser(s.url);
    const page = await b.fetch("/magic?token=abc");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('action="/magic/generate"');
    expect(html).toContain('action="/magic/login"');
    expect(html).toContain('value="abc"');
    expect(html).toMatch(/<meta name="_csrf" content="[^"]+">/);
  });

  it("generates through the host token service and hands exchange and token to the generation handler", async () => {
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/magic");
    const before = service.generated;
    const res = await b.postJson("/magic/generate", { username: "user" }, { "x-csrf-token": csrf });
    expect(res.status).toBe(200);
    const { link } = (await res.json()) as { link: string };
    expect(link).toMatch(/^\/magic\?token=[A-Za-z0-9_-]{43}$/);
    expect(service.generated).toBe(before + 1);
    expect(links.seen.at(-1)).toEqual({ path: "/magic/generate", username: "user" });
    const ghost = await b.postJson("/magic/generate", { username: "ghost" }, { "x-csrf-token": csrf });
    expect(await ghost.json()).toEqual({ link: null });
    expect(service.generated).toBe(before + 1);
    // The container's default service never saw the token.
    const token = link.split("=")[1]!;
    expect(await s.platform.resolve(OneTimeTokenService).consume({ tokenValue: token })).toBeUndefined();
  });

  it("signs in at loginProcessingUrl through the success handler; the defaults are not served", async () => {
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/magic");
    const gen = await b.postJson("/magic/generate", { username: "admin" }, { "x-csrf-token": csrf });
    const token = ((await gen.json()) as { link: string }).link.split("=")[1]!;
    // The default URLs fall to the catch-all form chain and then to no route.
    for (const path of ["/ott/generate", "/login/ott"]) {
      const moved = await b.postJson(path, { username: "admin", token }, { "x-csrf-token": csrf });
      expect(moved.status).toBe(404);
    }
    expect((await b.fetch("/login/ott", { headers: json })).status).toBe(404);
    const consumed = service.consumed;
    const ok = await b.postJson("/magic/login", { token }, { "x-csrf-token": csrf });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ welcome: "admin", method: "ott" });
    expect(service.consumed).toBe(consumed + 1);
    expect(await (await b.fetch("/api/me")).json()).toMatchObject({ username: "admin", method: "ott" });
  });

  it("answers failures (login and generation) through the failure handler", async () => {
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/magic");
    const bad = await b.postJson("/magic/login", { token: "not-a-token" }, { "x-csrf-token": csrf });
    expect(bad.status).toBe(418);
    expect(await bad.json()).toEqual({ refused: "INVALID_TOKEN" });
    // Parameter names are fixed: `user` is not `username`.
    const renamed = await b.postJson("/magic/generate", { user: "user" }, { "x-csrf-token": csrf });
    expect(await renamed.json()).toEqual({ refused: "VALIDATION_FAILED" });
    const code = await b.postJson("/magic/login", { ott: "x" }, { "x-csrf-token": csrf });
    expect(await code.json()).toEqual({ refused: "VALIDATION_FAILED" });
  });

  it("answers the chain's CSRF errors through its ASEP handler; the form chain keeps the default", async () => {
    const b = new Browser(s.url);
    const ott = await b.postJson("/magic/generate", { username: "user" });
    expect(ott.status).toBe(403);
    expect(await ott.json()).toEqual({ magic: "reload", code: "CSRF_TOKEN_INVALID" });
    const form = await b.postJson("/things", { a: 1 });
    expect(form.status).toBe(403);
    expect(await form.json()).toMatchObject({ code: "CSRF_TOKEN_INVALID" });
  });
});

describe("OTT options: showDefaultSubmitPage(false), fixed parameter names, per-user rate limit", () => {
  let s: IdentityTestServer;
  const file = join(mkdtempSync(join(tmpdir(), "ott-options-")), "outbox.jsonl");
  beforeAll(async () => {
    s = await startIdentityServer({
      security: (r) =>
        r
          .form((f) => f.rawHttp((h) => h.securityMatcher("/login", "/csrf", "/api/me")))
          .session()
          .ott((o) =>
            o.showDefaultSubmitPage(false).rawHttp((h) => h.securityMatcher("/ott/**", "/login/ott")),
          )
          .session()
          .build(),
      properties: { "platform.auth.ott.outbox-file": file, "platform.auth.ott.max-per-user": 3 },
    });
  });
  afterAll(() => s.close());

  async function csrfOf(b: Browser): Promise<string> {
    return ((await (await b.fetch("/csrf")).json()) as { token: string }).token;
  }

  it("serves no page; generation and the login URL still work, and a `user` field binds nothing", async () => {
    const b = new Browser(s.url);
    expect((await b.fetch("/login/ott", { headers: json })).status).toBe(404);
    expect((await b.fetch("/login/ott?token=x", { headers: { accept: "text/html" } })).status).toBe(404);
    const csrf = await csrfOf(b);
    const gen = await b.postJson("/ott/generate", { username: "user" }, { "x-csrf-token": csrf });
    expect(gen.status).toBe(200);
    expect(await gen.json()).toMatchObject({ success: true, submitPageUrl: "/login/ott" });
    const token = await tokenAt(file, 1);
    const ok = await b.postJson("/login/ott", { token, user: "admin" }, { "x-csrf-token": csrf });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, redirectUrl: "/" });
    expect(await (await b.fetch("/api/me")).json()).toMatchObject({ username: "user", method: "ott" });
  });

  it("answers the 4th generation request for one username in the window with 429 TOO_MANY_ATTEMPTS", async () => {
    const b = new Browser(s.url);
    const csrf = await csrfOf(b);
    const ask = (username: string) => b.postJson("/ott/generate", { username }, { "x-csrf-token": csrf });
    for (const username of ["admin", "ghost"]) {
      for (let i = 0; i < 3; i++) expect((await ask(username)).status).toBe(200);
      const limited = await ask(username);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await limited.json()).toMatchObject({
        success: false,
        failureType: "TOO_MANY_ATTEMPTS",
        code: "TOO_MANY_ATTEMPTS",
      });
    }
    // Per user: "user" asked once in the first test, so it has two requests left.
    expect((await ask("user")).status).toBe(200);
  });
});

describe("OTT options: .ott().oauth2() and a host-registered OneTimeTokenService", () => {
  let s: IdentityTestServer;
  const file = join(mkdtempSync(join(tmpdir(), "ott-oauth2-")), "outbox.jsonl");
  const hostService = new CountingTokenService();
  beforeAll(async () => {
    s = await startIdentityServer({
      security: (r) =>
        r
          .ott((o) => o.rawHttp((h) => h.securityMatcher("/ott/**", "/login/ott", "/api/me")))
          .oauth2()
          .build(),
      properties: { "platform.auth.ott.outbox-file": file },
      register: (c) => c.registerInstance(OneTimeTokenService, hostService),
    });
  });
  afterAll(() => s.close());

  it("generates and signs in without CSRF or cookie, answering tokens; the bearer token identifies the user", async () => {
    const b = new Browser(s.url);
    const gen = await b.postJson("/ott/generate", { username: "user" });
    expect(gen.status).toBe(200);
    const token = await tokenAt(file, 1);
    expect(hostService.generated).toBe(1);
    const res = await b.postJson("/login/ott", { token });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: true, tokenType: "Bearer", accessToken: expect.any(String) });
    expect(body.refreshToken).toEqual(expect.any(String));
    expect(hostService.consumed).toBe(1);
    const me = await fetch(`${s.url}/api/me`, { headers: { authorization: `Bearer ${body.accessToken}` } });
    expect(await me.json()).toMatchObject({ username: "user", method: "ott" });
    const again = await b.postJson("/login/ott", { token });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ success: false, code: "INVALID_TOKEN" });
  });
});
