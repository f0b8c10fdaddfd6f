import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { antMatcher } from "../../web/request-matcher.js";
import { InMemorySessionStore } from "../session/in-memory-session-store.js";
import { SessionManager } from "../session/session-manager.js";
import { CsrfFilter, type CsrfFilterOptions } from "./csrf-filter.js";
import { csrfHiddenInput, csrfMetaTags } from "./csrf-html.js";
import { csrfToken } from "./csrf-token.js";
import { SessionCsrfTokenRepository } from "./session-csrf-token-repository.js";

function setup(options: Partial<CsrfFilterOptions> = {}) {
  const clock = new ManualClock();
  const store = new InMemorySessionStore({ clock });
  const ids = new CryptoIdGenerator();
  const sessions = new SessionManager({ store, clock, ids });
  const repository = new SessionCsrfTokenRepository({ sessions, ids });
  const filter = new CsrfFilter({ repository, ...options });
  return { store, sessions, repository, filter };
}

function exchange(
  method: string,
  init: { cookie?: string; headers?: Record<string, string>; body?: string; url?: string } = {},
) {
  return new HttpExchange({
    method,
    url: init.url ?? "/account",
    headers: { cookie: init.cookie, ...init.headers },
    remoteAddress: "127.0.0.1",
    readBody: init.body === undefined ? undefined : async () => init.body!,
  });
}

/** Runs the filter; returns whether `next` ran and the error code, if any. */
async function run(filter: CsrfFilter, ex: HttpExchange): Promise<{ next: boolean; code?: string }> {
  let next = false;
  try {
    await filter.filter(ex, async () => {
      next = true;
    });
  } catch (e) {
    return { next, code: isPlatformError(e) ? e.code : `not a PlatformError: ${String(e)}` };
  }
  return { next };
}

/** A browser that loaded a page with a form: a session cookie and the token the page carried. */
async function visit(kit: ReturnType<typeof setup>) {
  const page = exchange("GET");
  expect(await run(kit.filter, page)).toEqual({ next: true });
  const token = await csrfToken(page)!.value();
  const cookie = `PLATFORM_SESSION=${page.response.cookies[0]!.value}`;
  return { token, cookie };
}

describe("CsrfFilter", () => {
  it("is named csrf", () => {
    expect(setup().filter.name).toBe("csrf");
  });

  it("lets safe methods through and creates nothing until a page asks for the token", async () => {
    const kit = setup();
    for (const method of ["GET", "HEAD", "OPTIONS", "TRACE"]) {
      const ex = exchange(method);
      expect(await run(kit.filter, ex)).toEqual({ next: true });
      expect(csrfToken(ex)).toMatchObject({ headerName: "X-CSRF-TOKEN", parameterName: "_csrf" });
      expect(ex.response.cookies).toEqual([]);
    }
    expect(kit.store.size).toBe(0);
  });

  it("makes the token lazily: one per session, stable across requests", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = exchange("GET", { cookie });
    await run(kit.filter, again);
    expect(await csrfToken(again)!.value()).toBe(token);
    expect(await kit.repository.load(again)).toBe(token);
  });

  it("accepts the token in the X-CSRF-TOKEN header", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    const post = exchange("POST", { cookie, headers: { "x-csrf-token": token } });
    expect(await run(kit.filter, post)).toEqual({ next: true });
  });

  it("accepts the token in an urlencoded _csrf field, leaving the body readable", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    const post = exchange("POST", {
      cookie,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `name=x&_csrf=${encodeURIComponent(token)}`,
    });
    expect(await run(kit.filter, post)).toEqual({ next: true });
    expect(await post.fields()).toMatchObject({ name: "x" });
  });

  it("accepts the token in a JSON body field", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    const post = exchange("PUT", {
      cookie,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ _csrf: token, name: "x" }),
    });
    expect(await run(kit.filter, post)).toEqual({ next: true });
  });

  it("honours custom header and parameter names", async () => {
    const kit = setup({ headerName: "X-XSRF", parameterName: "token" });
    const { token, cookie } = await visit(kit);
    expect(await run(kit.filter, exchange("POST", { cookie, headers: { "X-XSRF": token } }))).toEqual({
      next: true,
    });
    const form = exchange("POST", {
      cookie,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${token}`,
    });
    expect(await run(kit.filter, form)).toEqual({ next: true });
  });

  it("skips requests the ignoring matcher selects", async () => {
    const kit = setup({ ignoring: antMatcher("/webhooks/**", "POST") });
    expect(await run(kit.filter, exchange("POST", { url: "/webhooks/github" }))).toEqual({ next: true });
    expect((await run(kit.filter, exchange("POST", { url: "/account" }))).code).toBe("CSRF_TOKEN_INVALID");
  });

  it("rotates the token (after login): the old one stops working", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    const login = exchange("POST", { cookie, headers: { "x-csrf-token": token } });
    await run(kit.filter, login);
    const fresh = await kit.repository.rotate(login);
    expect(fresh).not.toBe(token);
    expect(await csrfToken(login)!.value()).toBe(fresh);
    const stale = exchange("POST", { cookie, headers: { "x-csrf-token": token } });
    expect((await run(kit.filter, stale)).code).toBe("CSRF_TOKEN_INVALID");
    const ok = exchange("POST", { cookie, headers: { "x-csrf-token": fresh } });
    expect(await run(kit.filter, ok)).toEqual({ next: true });
  });

  it("refuses a header name that is not a header token and an empty parameter name", () => {
    for (const bad of [{ headerName: "X CSRF" }, { headerName: "X-CSRF\r\n" }, { parameterName: "" }]) {
      let code = "none";
      try {
        setup(bad);
      } catch (e) {
        code = isPlatformError(e) ? e.code : "other";
      }
      expect(code, JSON.stringify(bad)).toBe("CONFIGURATION_INVALID");
    }
  });
});

describe("CSRF HTML helpers", () => {
  it("emit the meta tags and the hidden input with the session's token", async () => {
    const kit = setup();
    const page = exchange("GET");
    await run(kit.filter, page);
    const token = await csrfToken(page)!.value();
    expect(await csrfMetaTags(page)).toBe(
      `<meta name="_csrf" content="${token}">\n<meta name="_csrf_header" content="X-CSRF-TOKEN">`,
    );
    expect(await csrfHiddenInput(page)).toBe(`<input type="hidden" name="_csrf" value="${token}">`);
  });

  it("escape what they emit", async () => {
    const ex = exchange("GET");
    ex.attributes.set("platform.csrf", {
      headerName: "X-A",
      parameterName: `p"><script>`,
      value: async () => `"'<&>`,
    });
    expect(await csrfMetaTags(ex)).toContain(`content="&quot;&#39;&lt;&amp;&gt;"`);
    expect(await csrfHiddenInput(ex)).toBe(
      `<input type="hidden" name="p&quot;&gt;&lt;script&gt;" value="&quot;&#39;&lt;&amp;&gt;">`,
    );
  });

  it("are empty on a chain without CSRF protection", async () => {
    const ex = exchange("GET");
    expect(await csrfMetaTags(ex)).toBe("");
    expect(await csrfHiddenInput(ex)).toBe("");
  });
});
