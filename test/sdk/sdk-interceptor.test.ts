import { beforeEach, describe, expect, it } from "vitest";
import { type Answer, type Sandbox, type SentRequest, sdkSandbox } from "./sdk-sandbox.js";

// The step-up interceptor over fetch, in the built IIFE (node:vm sandbox, stubbed server). The
// challenge UI is the application's `onChallenge` hook, which completes the factor with the SDK's own
// Client (`verifyOtt`), so the whole path runs: 401 → challenge → verify → retry. The overlay and XHR
// run in Chromium (test/e2e/sdk-step-up.e2e.test.ts).

const CHALLENGE = {
  code: "MFA_CHALLENGE_REQUIRED",
  message: "A recent second factor is required for this resource",
  maxAgeSeconds: 300,
  mfaUrl: "/mfa/challenge/ott",
  mfaSessionId: "step-1",
  currentState: "OTT_CHALLENGE",
};

let box: Sandbox;
/** The requests the stub server saw for one path (the SDK's own and the application's). */
const hits = (path: string, method?: string): SentRequest[] =>
  box.sent.filter((r) => new URL(r.url).pathname === path && (method === undefined || r.method === method));

/** A resource behind step-up: 401 until a code was verified, then 200 with the request's body. */
function stepUpRoute(method: string, path: string): void {
  box.answers.set(`${method} ${path}`, (r) =>
    verified ? { body: { ok: true, body: r.body ?? null } } : { status: 401, body: CHALLENGE },
  );
}
let verified = false;
let completion: Record<string, unknown>;

/** Installs the interceptor with a hook that verifies a code, and records the page's events. */
function install(options = "{}"): void {
  box.run(`
    window.events = [];
    window.challenges = [];
    window.client = new PlatformMFA.Client({ config: {}, autoRedirect: true });
    for (const t of ["mfa:challenge","mfa:challenge-cancelled","mfa:blocked","mfa:retry-skipped","mfa:resumed","mfa:completed"]) {
      window.client.addEventListener(t, (e) => window.events.push({ type: t, detail: e.detail }));
    }
    window.handle = window.client.installInterceptor(Object.assign({
      onChallenge: async (c) => {
        window.challenges.push({ code: c.code, state: c.currentState, request: c.request, ids: c.mfaSessionIds.slice() });
        await new Promise((r) => setTimeout(r, 5));
        await c.client.verifyOtt("123456");
      },
    }, ${options}));
  `);
}

/** Runs `fetch` in the page: status and JSON body of what the caller receives. */
function pageFetch(url: string, init = "{}"): Promise<{ status: number; body: unknown }> {
  return box.run(
    `fetch(${JSON.stringify(url)}, ${init}).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }))`,
  );
}

const events = (): { type: string; detail: Record<string, unknown> }[] => box.run("window.events");
const types = (): string[] => events().map((e) => e.type);

beforeEach(async () => {
  box = await sdkSandbox();
  verified = false;
  completion = { success: true, stepUp: true, redirectUrl: "/" };
  box.answers.set("POST /login/mfa-ott", () => {
    verified = true;
    return { body: completion };
  });
  box.answers.set("POST /mfa/cancel", { body: { success: true, state: "MFA_CANCELLED" } });
});

describe("step-up interceptor (fetch)", () => {
  it("a GET meets MFA_CHALLENGE_REQUIRED: one challenge, the code verified, the caller gets the retried 200", async () => {
    stepUpRoute("GET", "/account/data");
    install();
    expect(await pageFetch("/account/data")).toEqual({ status: 200, body: { ok: true, body: null } });
    expect(hits("/account/data")).toHaveLength(2);
    expect(box.run("window.challenges")).toEqual([
      {
        code: "MFA_CHALLENGE_REQUIRED",
        state: "OTT_CHALLENGE",
        request: { method: "GET", url: "https://app.example/account/data" },
        ids: ["step-1"],
      },
    ]);
    // Marked as a script request (the server answers 401 JSON instead of redirecting to the MFA page).
    expect(hits("/account/data").map((r) => r.headers["x-requested-with"])).toEqual([
      "XMLHttpRequest",
      "XMLHttpRequest",
    ]);
    // The SDK's own verify call bypassed the interceptor and named no MFA session (the cookie decides).
    const verify = hits("/login/mfa-ott");
    expect(verify).toHaveLength(1);
    expect(verify[0]).toMatchObject({ sdk: true, body: JSON.stringify({ token: "123456" }) });
    expect(verify[0]?.headers["x-mfa-session-id"]).toBeUndefined();
    expect(types()).toEqual(["mfa:challenge", "mfa:completed"]);
    // A step-up answer never navigates, even with autoRedirect.
    expect(box.assigned).toEqual([]);
  });

  it("a POST without Idempotency-Key is not sent again: the caller gets the original 401", async () => {
    stepUpRoute("POST", "/account/transfer");
    install();
    const init = `{ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ amount: 5 }) }`;
    const answer = await pageFetch("/account/transfer", init);
    expect(answer).toEqual({ status: 401, body: CHALLENGE });
    expect(hits("/account/transfer")).toHaveLength(1);
    expect(hits("/login/mfa-ott")).toHaveLength(1);
    expect(events().find((e) => e.type === "mfa:retry-skipped")?.detail.request).toEqual({
      method: "POST",
      url: "https://app.example/account/transfer",
    });
    // The factor is fresh now: the application's own resubmit goes through.
    expect(await pageFetch("/account/transfer", init)).toMatchObject({ status: 200 });
  });

  it("a POST with Idempotency-Key is retried once with the same body and headers", async () => {
    stepUpRoute("POST", "/account/transfer");
    install();
    const answer = await pageFetch(
      "/account/transfer",
      `{ method: "POST", headers: { "content-type": "application/json", "Idempotency-Key": "k-42" }, body: JSON.stringify({ amount: 5 }) }`,
    );
    expect(answer).toEqual({ status: 200, body: { ok: true, body: '{"amount":5}' } });
    const seen = hits("/account/transfer");
    expect(seen.map((r) => [r.body, r.headers["idempotency-key"], r.headers["content-type"]])).toEqual([
      ['{"amount":5}', "k-42", "application/json"],
      ['{"amount":5}', "k-42", "application/json"],
    ]);
  });

  it("retryUnsafe: the application's per-request opt-in retries a POST without a key", async () => {
    stepUpRoute("POST", "/account/drafts");
    stepUpRoute("POST", "/account/orders");
    install(`{ retryUnsafe: (r) => r.url.endsWith("/drafts") }`);
    expect(await pageFetch("/account/drafts", `{ method: "POST", body: "d" }`)).toMatchObject({
      status: 200,
    });
    verified = false;
    expect(await pageFetch("/account/orders", `{ method: "POST", body: "o" }`)).toMatchObject({
      status: 401,
    });
    expect(hits("/account/drafts")).toHaveLength(2);
    expect(hits("/account/orders")).toHaveLength(1);
  });

  it("an application's own 401/403/423 passes untouched: no challenge, the caller sees it", async () => {
    const own: [string, Answer][] = [
      ["/app/forbidden", { status: 403, body: { code: "NOT_YOUR_DOCUMENT", error: "forbidden" } }],
      ["/app/denied", { status: 403, body: { code: "ACCESS_DENIED", message: "Access denied" } }],
      ["/app/html", { status: 403, text: "<h1>Forbidden</h1>", contentType: "text/html" }],
      ["/app/plain401", { status: 401, text: "nope", contentType: "text/plain" }],
      ["/app/locked", { status: 423, body: { locked: true } }],
      ["/app/wrong-status", { status: 403, body: CHALLENGE }],
    ];
    for (const [path, answer] of own) box.answers.set(`GET ${path}`, answer);
    install();
    for (const [path, answer] of own) {
      const got = await pageFetch(path);
      expect(got.status, path).toBe(answer.status);
      expect(hits(path), path).toHaveLength(1);
    }
    expect(box.run("window.challenges")).toEqual([]);
    expect(types()).toEqual([]);
  });

  it("a refusal no factor clears raises mfa:blocked with its code, is not retried, and follows the configured redirect", async () => {
    box.answers.set("GET /account/data", {
      status: 403,
      body: { code: "AUTHENTICATION_BLOCKED", message: "blocked" },
    });
    box.answers.set("GET /account/review", {
      status: 423,
      body: { code: "ZERO_TRUST_REVIEW_REQUIRED", message: "review" },
    });
    install(`{ blockedRedirectUrl: "/blocked" }`);
    expect(await pageFetch("/account/data")).toMatchObject({
      status: 403,
      body: { code: "AUTHENTICATION_BLOCKED" },
    });
    expect(await pageFetch("/account/review")).toMatchObject({ status: 423 });
    expect(hits("/account/data")).toHaveLength(1);
    expect(box.run("window.challenges")).toEqual([]);
    expect(events().map((e) => [e.type, (e.detail.blocked as { code: string }).code])).toEqual([
      ["mfa:blocked", "AUTHENTICATION_BLOCKED"],
      ["mfa:blocked", "ZERO_TRUST_REVIEW_REQUIRED"],
    ]);
    // One navigation, however many refusals.
    expect(box.assigned).toEqual(["/blocked"]);
  });

  it("without blockedRedirectUrl a refusal only raises the event (no navigation by default)", async () => {
    box.answers.set("GET /account/data", { status: 503, body: { code: "ZERO_TRUST_PENDING_ANALYSIS" } });
    install();
    expect(await pageFetch("/account/data")).toMatchObject({ status: 503 });
    expect(types()).toEqual(["mfa:blocked"]);
    expect(box.assigned).toEqual([]);
  });

  it("three concurrent requests share one challenge; each is retried exactly once", async () => {
    for (const p of ["/account/a", "/account/b", "/account/c"]) stepUpRoute("GET", p);
    install();
    const answers = await box.run<Promise<{ status: number }[]>>(
      `Promise.all(["/account/a","/account/b","/account/c"].map((u) => fetch(u).then((r) => ({ status: r.status }))))`,
    );
    expect(answers).toEqual([{ status: 200 }, { status: 200 }, { status: 200 }]);
    expect(box.run<unknown[]>("window.challenges")).toHaveLength(1);
    for (const p of ["/account/a", "/account/b", "/account/c"]) expect(hits(p), p).toHaveLength(2);
    expect(hits("/login/mfa-ott")).toHaveLength(1);
  });

  it("bearer: the MFA calls carry the old token, the retried request the new one", async () => {
    box.answers.set("GET /api/account/data", (r) =>
      r.headers.authorization === "Bearer new-access"
        ? { body: { ok: true } }
        : { status: 401, body: CHALLENGE },
    );
    completion = {
      success: true,
      stepUp: true,
      accessToken: "new-access",
      refreshToken: "new-refresh",
      tokenType: "Bearer",
      expiresIn: 900,
    };
    install();
    const answer = await pageFetch(
      "/api/account/data",
      `{ headers: { Authorization: "Bearer old-access" } }`,
    );
    expect(answer).toEqual({ status: 200, body: { ok: true } });
    expect(hits("/api/account/data").map((r) => r.headers.authorization)).toEqual([
      "Bearer old-access",
      "Bearer new-access",
    ]);
    expect(hits("/login/mfa-ott")[0]?.headers.authorization).toBe("Bearer old-access");
    // The Client's token store keeps the new pair.
    expect(box.run("window.client.accessToken()")).toBe("new-access");
  });

  it("session: a CSRF token rotated by the step-up replaces the stale one (meta tag and retried header)", async () => {
    box.document.meta.set("_csrf", "csrf-before");
    completion = { success: true, stepUp: true, redirectUrl: "/", csrfToken: "csrf-after" };
    stepUpRoute("POST", "/account/profile");
    install();
    const init = `{ method: "POST", headers: { "X-CSRF-TOKEN": document.querySelector('meta[name="_csrf"]').getAttribute("content"), "Idempotency-Key": "p-1" }, body: "x" }`;
    expect(await pageFetch("/account/profile", init)).toMatchObject({ status: 200 });
    expect(hits("/account/profile").map((r) => r.headers["x-csrf-token"])).toEqual([
      "csrf-before",
      "csrf-after",
    ]);
    expect(box.document.meta.get("_csrf")).toBe("csrf-after");
  });

  it("a challenge given up (the hook rejects): the caller gets the original 401 and nothing is re-sent", async () => {
    stepUpRoute("GET", "/account/data");
    install(
      `{ onChallenge: () => Promise.reject(new PlatformMFA.PlatformMfaError("STEP_UP_CANCELLED", "no")) }`,
    );
    expect(await pageFetch("/account/data")).toEqual({ status: 401, body: CHALLENGE });
    expect(hits("/account/data")).toHaveLength(1);
    expect(types()).toEqual(["mfa:challenge", "mfa:challenge-cancelled"]);
  });

  it("requests to another origin are never touched (no header, no challenge)", async () => {
    install();
    await box.run(`fetch("https://other.example/account/data").catch(() => null)`);
    const sent = box.sent.find((r) => r.url === "https://other.example/account/data");
    expect(sent?.headers["x-requested-with"]).toBeUndefined();
    expect(box.run("window.challenges")).toEqual([]);
  });

  it("uninstall restores fetch; one interceptor per page", async () => {
    const original = box.window.fetch;
    install();
    expect(box.window.fetch).not.toBe(original);
    expect(
      box.run(
        `(() => { try { window.client.installInterceptor(); return "installed"; } catch (e) { return e.code; } })()`,
      ),
    ).toBe("INTERCEPTOR_INSTALLED");
    box.run("window.handle.uninstall()");
    expect(box.window.fetch).toBe(original);
    stepUpRoute("GET", "/account/data");
    expect(await pageFetch("/account/data")).toMatchObject({ status: 401 });
    expect(box.run("window.challenges")).toEqual([]);
  });

  it("redirect fallback: keeps only method and URL, goes to mfaUrl, and announces them once on return", async () => {
    stepUpRoute("POST", "/account/transfer");
    install(`{ fallback: "redirect", onChallenge: undefined }`);
    const answer = await pageFetch(
      "/account/transfer?to=42",
      `{ method: "POST", headers: { Authorization: "Bearer secret-token" }, body: "amount=5" }`,
    );
    expect(answer.status).toBe(401);
    expect(box.assigned).toEqual(["/mfa/challenge/ott"]);
    const stored = JSON.parse(box.sessionStorage.items.get("platform_mfa_resume") ?? "{}") as Record<
      string,
      unknown
    >;
    expect(Object.keys(stored).sort()).toEqual(["at", "method", "url"]);
    expect(stored).toMatchObject({ method: "POST", url: "/account/transfer?to=42" });
    expect([...box.sessionStorage.items.values()].join()).not.toMatch(/secret-token|amount=5/);
    expect(hits("/login/mfa-ott")).toHaveLength(0);

    // "The page loads again": a new install finds it, says so once, and forgets it.
    box.run("window.handle.uninstall()");
    install();
    expect(box.run("window.handle.resumed")).toEqual({ method: "POST", url: "/account/transfer?to=42" });
    await new Promise((r) => setTimeout(r, 10));
    expect(
      events()
        .filter((e) => e.type === "mfa:resumed")
        .map((e) => e.detail.resumed),
    ).toEqual([{ method: "POST", url: "/account/transfer?to=42" }]);
    expect(box.sessionStorage.items.has("platform_mfa_resume")).toBe(false);
  });
});

describe("step-up with a plugin code factor (endpoints.factors)", () => {
  const TOTP = { kind: "code", verify: "/login/mfa-totp" };
  /** A challenge whose flow offers TOTP besides hostile or malformed factor entries. */
  function challengeWith(factors: Record<string, unknown>): void {
    box.answers.set("GET /account/data", () =>
      verified
        ? { body: { ok: true } }
        : { status: 401, body: { ...CHALLENGE, endpoints: { status: "/api/mfa/status", factors } } },
    );
  }

  it("selectFactor then verifyFactor posts { token } to the factor's own URL; the caller gets the retried 200", async () => {
    challengeWith({ TOTP });
    box.answers.set("POST /mfa/select-factor", {
      body: {
        mfaRequired: true,
        state: "FACTOR_CHALLENGE",
        currentFactor: "TOTP",
        endpoints: { factors: { TOTP } },
      },
    });
    box.answers.set("POST /login/mfa-totp", () => {
      verified = true;
      return { body: completion };
    });
    install(`{ onChallenge: async (c) => {
      window.challenges.push({ factors: JSON.parse(JSON.stringify(c.factors)) });
      await c.client.selectFactor("TOTP");
      await c.client.verifyFactor("TOTP", "654321");
    } }`);
    expect(await pageFetch("/account/data")).toEqual({ status: 200, body: { ok: true } });
    expect(box.run("window.challenges")).toEqual([{ factors: { TOTP } }]);
    const posted = hits("/login/mfa-totp", "POST");
    expect(posted.map((r) => JSON.parse(r.body ?? "null"))).toEqual([{ token: "654321" }]);
    expect(posted[0]?.headers["content-type"]).toBe("application/json");
    expect(hits("/login/mfa-ott")).toHaveLength(0);
    expect(types()).toContain("mfa:completed");
  });

  it("a hostile, malformed, missing or oversized factor list is never trusted: FACTOR_NOT_AVAILABLE, nothing sent", async () => {
    const fillers = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`F${i}`, TOTP]));
    challengeWith({
      OFFSITE: { kind: "code", verify: "https://evil.example/steal" },
      SLASHES: { kind: "code", verify: "//evil.example/steal" },
      BACKSLASH: { kind: "code", verify: "/\\evil.example/steal" },
      SMS: { kind: "sms", verify: "/login/mfa-sms" },
      NUMBER: { kind: "code", verify: 42 },
      lower_case: TOTP,
      "<script>": TOTP,
      ...fillers,
    });
    install(`{ onChallenge: async (c) => {
      const codes = [];
      for (const t of ["OFFSITE", "SLASHES", "BACKSLASH", "SMS", "NUMBER", "lower_case", "<script>", "constructor", "__proto__", "F39", "NONE"]) {
        await c.client.verifyFactor(t, "1").catch((e) => codes.push(e.code));
      }
      window.challenges.push({ kept: Object.keys(c.factors), codes });
      throw new PlatformMFA.PlatformMfaError("STEP_UP_CANCELLED", "given up");
    } }`);
    expect(await pageFetch("/account/data")).toMatchObject({ status: 401 });
    const [seen] = box.run<{ kept: string[]; codes: string[] }[]>("window.challenges");
    // Only the first 16 entries are read (7 malformed ones, then F0..F8), and only well-formed ones kept.
    expect(seen?.kept).toEqual(Array.from({ length: 9 }, (_, i) => `F${i}`));
    expect(seen?.codes).toEqual(Array(11).fill("FACTOR_NOT_AVAILABLE"));
    expect(box.sent.map((r) => new URL(r.url).pathname)).toEqual(["/account/data"]);
  });
});
