import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDemo, startDemo } from "../../support/demo-server.js";
import { Browser, PAGE_NAVIGATION } from "../identity-test-server.js";

// Issue #25 item 8: a browser's /favicon.ico request was saved as the page to return to after
// sign-in, and a new user landed on a 404. The demo with `no-match-decision=DENY` asks anonymous
// callers to sign in for every URL no policy names, favicon included.
const ICON = {
  accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
  "sec-fetch-mode": "no-cors",
  "sec-fetch-dest": "image",
};
const SCRIPT_FETCH = { accept: "*/*", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" };
const IFRAME = { ...PAGE_NAVIGATION, "sec-fetch-dest": "iframe" };

describe("the page to return to after sign-in is a page the user navigated to", () => {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await startDemo({}, { "platform.policy.no-match-decision": "DENY" });
  });
  afterAll(() => demo.close());

  async function signIn(b: Browser): Promise<string | null> {
    const csrf = await b.csrfFrom("/login");
    const res = await b.postForm("/login", { username: "user", password: "password", _csrf: csrf });
    expect(res.status).toBe(302);
    return res.headers.get("location");
  }

  it("a favicon, assets, a script's fetch or a frame asked for after the page do not replace it", async () => {
    const b = new Browser(demo.base);
    const page = await b.navigate("/account/security");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/login");
    await b.navigate("/login");
    for (const [path, headers] of [
      ["/apple-touch-icon.png", ICON],
      ["/reports", SCRIPT_FETCH],
      ["/embedded", IFRAME],
      // Navigation headers do not make an asset a page: these are never saved.
      ["/.well-known/change-password", PAGE_NAVIGATION],
      ["/css/site", PAGE_NAVIGATION],
      ["/site.webmanifest", PAGE_NAVIGATION],
      // Last, as a browser asks for it once the login page is up: this is what was saved.
      ["/favicon.ico", ICON],
    ] as const) {
      const res = await b.get(path, headers);
      expect(res.status, path).toBe(302); // still sent to sign in; only not remembered
    }
    expect(await signIn(b)).toBe("/account/security");
  });

  it("a client without Sec-Fetch-* headers is a navigation only when it asks for HTML", async () => {
    const html = new Browser(demo.base);
    await html.get("/account/security?tab=keys", { accept: "text/html" });
    expect(await signIn(html)).toBe("/account/security?tab=keys");

    const curl = new Browser(demo.base);
    await curl.get("/account/security", { accept: "*/*" });
    await curl.get("/account/security", { accept: "text/html;q=0" });
    expect(await signIn(curl)).toBe("/");
  });
});
