import { describe, expect, it } from "vitest";
import { request } from "./ott.fixture.js";
import { chainRoutesRunner } from "../chain/chain-routes.test-support.js";
import { OttSubmitPage, type OttSubmitPageOptions } from "./ott-submit-page-endpoint.js";

const options: OttSubmitPageOptions = {
  url: "/login/ott",
  processingUrl: "/login/ott",
  generateUrl: "/ott/generate",
  csrfEnabled: true,
};

async function page(url: string, o: Partial<OttSubmitPageOptions> = {}, method = "GET") {
  const run = chainRoutesRunner(new OttSubmitPage({ ...options, ...o }).routes());
  const { exchange, fellThrough } = await run(request(method, url));
  return { exchange, fellThrough, html: String(exchange.response.body ?? "") };
}

describe("OttSubmitPage", () => {
  it("serves a page with both forms, the CSRF token and no script, uncached and without Referer", async () => {
    const { exchange, html } = await page("/login/ott");
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(exchange.response.headers.get("cache-control")).toBe("no-store");
    expect(exchange.response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(html).toContain('<meta name="_csrf" content="csrf-value">');
    expect(html).toContain('<meta name="_csrf_header" content="X-CSRF-TOKEN">');
    expect(html.match(/<input type="hidden" name="_csrf" value="csrf-value">/g)).toHaveLength(2);
    expect(html).toMatch(/<form id="ottLoginForm" method="post" action="\/login\/ott">/);
    expect(html).toMatch(/<input id="ottToken" name="token"[^>]* required autofocus>/);
    expect(html).toMatch(/<input id="ottUsername" name="username"/);
    expect(html).toMatch(/<form id="ottGenerateForm" method="post" action="\/ott\/generate">/);
    expect(html).toMatch(/<input id="ottGenerateUsername" name="username"[^>]* required>/);
    expect(html).not.toMatch(/<script|\son\w+=|javascript:/i);
    expect(html).not.toContain('role="alert"');
  });

  it("pre-fills the magic link's token and offers the Sign in button, without signing in", async () => {
    const token = "abc_DEF-123".padEnd(43, "x");
    const { html } = await page(`/login/ott?token=${token}`);
    expect(html).toContain(`value="${token}"`);
    expect(html).toContain('<button id="ottSignInButton" type="submit" autofocus>Sign in</button>');
    expect(html).toContain("Press <strong>Sign in</strong> to continue.");
  });

  it("escapes a hostile token and does not echo one longer than the login accepts", async () => {
    const hostile = `"><script>alert(1)</script><x y='`;
    const { html } = await page(`/login/ott?token=${encodeURIComponent(hostile)}`);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#60;x y=&#39;");
    const long = await page(`/login/ott?token=${"A".repeat(513)}`);
    expect(long.html).not.toContain("A".repeat(513));
    expect(long.html).not.toContain("ottLinkHint");
  });

  it("shows the sent notice after ?sent and the error alert after ?error", async () => {
    expect((await page("/login/ott?sent")).html).toContain(
      "If the account exists, a sign-in link has been sent.",
    );
    expect((await page("/login/ott?error")).html).toContain('role="alert"');
  });

  it("leaves CSRF out when the chain has none", async () => {
    const { html } = await page("/login/ott", { csrfEnabled: false });
    expect(html).not.toContain("_csrf");
  });

  it("serves HEAD, lets POST and other paths through, and uses the configured URLs (escaped)", async () => {
    expect((await page("/login/ott", {}, "HEAD")).exchange.response.status).toBe(200);
    expect((await page("/login/ott", {}, "POST")).fellThrough).toBe(true);
    expect((await page("/login/ott/x")).fellThrough).toBe(true);
    const custom = await page("/magic", {
      url: "/magic",
      processingUrl: "/magic/verify?a=1&b=2",
      generateUrl: "/magic/request",
    });
    expect(custom.html).toContain('action="/magic/verify?a=1&#38;b=2"');
    expect(custom.html).toContain('action="/magic/request"');
  });
});
