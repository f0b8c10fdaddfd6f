import { beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, type SentRequest, sdkSandbox } from "./sdk-sandbox.js";

// The built IIFE, run in a node:vm sandbox with a stubbed fetch, document, storages and location.

/** The slice of the SDK's API these tests call (the bundle is plain JavaScript). */
interface Answer {
  [key: string]: unknown;
}
interface MfaError extends Error {
  code: string;
  status: number;
  body: Answer;
  attemptsMade?: number;
  maxAttempts?: number;
}
interface ApiClientLike {
  init(options?: { config?: Answer; configUrl?: string }): Promise<Answer>;
  config: Answer | undefined;
  state: Answer & { mfaSessionId?: string; username?: string; availableFactors: string[] };
  login(u: string, p: string): Promise<Answer>;
  loginForm(u: string, p: string): Promise<Answer>;
  selectFactor(f: string): Promise<Answer>;
  verifyOtt(code: string, username?: string): Promise<Answer>;
  requestOttCode(): Promise<Answer>;
  status(): Promise<Answer>;
  logout(): Promise<Answer>;
}
interface ClientLike extends EventTarget {
  apiClient: ApiClientLike;
  ready: Promise<unknown>;
  state: ApiClientLike["state"];
  options: { autoInit: boolean; autoRedirect: boolean; tokenPersistence: string };
  init(options?: { config?: Answer }): Promise<Answer>;
  verifyOtt(code: string, username?: string): Promise<Answer>;
  selectFactor(f: string): Promise<Answer>;
  handleAuthenticationResult(result: Answer): void;
  persistTokensToStorage(result: Answer): void;
  accessToken(): string | undefined;
  logout(): Promise<Answer>;
  clearClientState(): void;
  clearPersistedTokens(): void;
}
interface Sdk {
  version: string;
  Client: new (options?: Answer) => ClientLike;
  ApiClient: new (options?: Answer) => ApiClientLike;
  PlatformMfaError: new (...args: unknown[]) => MfaError;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TOKENS = {
  success: true,
  redirectUrl: "/home",
  accessToken: "access-1",
  refreshToken: "refresh-1",
  tokenType: "Bearer",
  expiresIn: 900,
  refreshExpiresIn: 86_400,
};
const MFA_REQUIRED = {
  mfaRequired: true,
  selectFactorUrl: "/mfa/select-factor",
  mfaSessionId: "mfa-1",
  status: "MFA_REQUIRED",
  state: "OTT_CHALLENGE",
  nextStepUrl: "/mfa/challenge/ott",
  currentFactor: "OTT",
  availableFactors: ["PASSKEY"],
};

let box: Sandbox;
let sdk: Sdk;

/** A client that never loads the server's config (injected defaults) and never navigates unless asked. */
function client(options: Answer = {}): ClientLike {
  return new sdk.Client({ config: {}, autoRedirect: false, ...options });
}

function last(): SentRequest {
  const r = box.sent.at(-1);
  if (!r) throw new Error("nothing sent");
  return r;
}

async function rejection(p: Promise<unknown>): Promise<MfaError> {
  try {
    await p;
  } catch (error) {
    return error as MfaError;
  }
  throw new Error("expected a rejection");
}

beforeEach(async () => {
  box = await sdkSandbox();
  sdk = box.window.PlatformMFA as Sdk;
  box.document.meta.set("_csrf", "csrf-token-1");
  box.document.meta.set("_csrf_header", "X-XSRF-TOKEN");
});

describe("requests and headers", () => {
  it("loginForm posts urlencoded credentials with _csrf, the CSRF header, the device id, same-origin", async () => {
    box.answers.set("POST /login", { body: MFA_REQUIRED });
    const c = client();
    await c.apiClient.loginForm("admin", "s3cret&=");
    const r = last();
    expect(r).toMatchObject({ url: "https://app.example/login", method: "POST", credentials: "same-origin" });
    expect(Object.fromEntries(new URLSearchParams(r.body))).toEqual({
      username: "admin",
      password: "s3cret&=",
      _csrf: "csrf-token-1",
    });
    expect(r.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(r.headers.accept).toBe("application/json");
    expect(r.headers["x-xsrf-token"]).toBe("csrf-token-1");
    expect(r.headers["x-device-id"]).toMatch(UUID);
    expect(r.headers["x-mfa-session-id"]).toBeUndefined();
    // No GET /api/mfa/config: the config was injected.
    expect(box.sent.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual(["POST /login"]);
  });

  it("the CSRF header defaults to X-CSRF-TOKEN and is not sent on GET", async () => {
    box.document.meta.delete("_csrf_header");
    box.answers.set("POST /mfa/select-factor", { body: MFA_REQUIRED });
    box.answers.set("GET /api/mfa/status", { body: { state: "OTT_CHALLENGE", allowed: ["PASSKEY"] } });
    const c = client();
    await c.selectFactor("OTT");
    expect(last().headers["x-csrf-token"]).toBe("csrf-token-1");
    expect(JSON.parse(last().body ?? "")).toEqual({ factorType: "OTT" });
    await c.apiClient.status();
    expect(last().method).toBe("GET");
    expect(last().headers["x-csrf-token"]).toBeUndefined();
    expect(c.state.availableFactors).toEqual(["PASSKEY"]);
  });

  it("tracks the MFA session from answers and sends it back; the username falls back to the tracked one", async () => {
    box.answers.set("POST /login", { body: MFA_REQUIRED });
    box.answers.set("POST /login/mfa-ott", { body: { success: true, redirectUrl: "/" } });
    const c = client();
    await c.apiClient.loginForm("admin", "admin");
    expect(c.state).toMatchObject({
      mfaSessionId: "mfa-1",
      username: "admin",
      state: "OTT_CHALLENGE",
      currentFactor: "OTT",
      availableFactors: ["PASSKEY"],
      nextStepUrl: "/mfa/challenge/ott",
    });
    await c.verifyOtt("123456");
    expect(last().headers["x-mfa-session-id"]).toBe("mfa-1");
    expect(JSON.parse(last().body ?? "")).toEqual({ token: "123456", username: "admin" });
    // The flow is over: its id is never sent again.
    expect(c.state.mfaSessionId).toBeUndefined();
  });

  it("keeps one device id in localStorage (platform_device_id) and reuses a stored one", async () => {
    box.answers.set("POST /mfa/ott/generate-code", { body: MFA_REQUIRED });
    const c = client();
    await c.apiClient.requestOttCode();
    const first = last().headers["x-device-id"];
    expect(box.localStorage.items.get("platform_device_id")).toBe(first);
    await c.apiClient.requestOttCode();
    expect(last().headers["x-device-id"]).toBe(first);
    const stored = "0b7a3c8e-5a41-4d2f-9b1e-2c3d4e5f6a7b";
    box.localStorage.items.set("platform_device_id", stored);
    await c.apiClient.requestOttCode();
    expect(last().headers["x-device-id"]).toBe(stored);
  });

  it("falls back to a device id in memory when storage is blocked", async () => {
    box.localStorage.blocked = true;
    box.answers.set("POST /mfa/ott/generate-code", { body: MFA_REQUIRED });
    const c = client();
    await c.apiClient.requestOttCode();
    await c.apiClient.requestOttCode();
    const [a, b] = box.sent.map((s) => s.headers["x-device-id"]);
    expect(a).toMatch(UUID);
    expect(b).toBe(a);
  });

  it("never sends a request to another origin", async () => {
    const c = new sdk.Client({
      autoRedirect: false,
      config: { primary: { restLoginProcessing: "https://evil.example/x" } },
    });
    const error = await rejection(c.apiClient.login("user", "password"));
    expect(error.code).toBe("INVALID_URL");
    expect(box.sent).toHaveLength(0);
  });
});

describe("configuration", () => {
  it("without an injected or page config, loads GET /api/mfa/config and uses its URLs", async () => {
    box.answers.set("GET /api/mfa/config", {
      body: {
        primary: { restLoginProcessing: "/admin/api/mfa/login" },
        api: { selectFactor: "/admin/mfa/select-factor" },
        urlPrefix: "/admin",
      },
    });
    box.answers.set("POST /admin/api/mfa/login", { body: MFA_REQUIRED });
    const c = new sdk.Client({ autoRedirect: false });
    expect(await c.ready).toMatchObject({ urlPrefix: "/admin", ott: { loginProcessing: "/login/mfa-ott" } });
    await c.apiClient.login("admin", "admin");
    expect(last()).toMatchObject({ url: "https://app.example/admin/api/mfa/login" });
    expect(JSON.parse(last().body ?? "")).toEqual({ username: "admin", password: "admin" });
    expect(last().headers["content-type"]).toBe("application/json");
    expect(box.sent.filter((s) => s.url.endsWith("/api/mfa/config"))).toHaveLength(1);
  });

  it("a failed automatic init is retried by the first call", async () => {
    box.answers.set("GET /api/mfa/config", { status: 503, body: { code: "UNAVAILABLE" } });
    const c = new sdk.Client({ autoRedirect: false });
    expect(await c.ready).toBeUndefined();
    box.answers.set("GET /api/mfa/config", { body: {} });
    box.answers.set("POST /mfa/select-factor", { body: MFA_REQUIRED });
    await c.selectFactor("OTT");
    expect(box.sent.map((s) => new URL(s.url).pathname)).toEqual([
      "/api/mfa/config",
      "/api/mfa/config",
      "/mfa/select-factor",
    ]);
  });

  it("reads #platform-page-config (URLs, MFA session id, token persistence) instead of fetching", async () => {
    box.document.pageConfig = {
      mfaSessionId: "mfa-page",
      ottRequestUrl: "/admin/mfa/ott/generate-code",
      tokenPersistence: "sessionStorage",
    };
    box.answers.set("POST /admin/mfa/ott/generate-code", { body: MFA_REQUIRED });
    const c = new sdk.Client({ autoRedirect: false });
    await c.ready;
    expect(c.options.tokenPersistence).toBe("sessionStorage");
    await c.apiClient.requestOttCode();
    expect(box.sent.map((s) => new URL(s.url).pathname)).toEqual(["/admin/mfa/ott/generate-code"]);
    expect(box.sent[0]?.headers["x-mfa-session-id"]).toBe("mfa-page");
  });

  it("a later init wins over the automatic one still loading", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    box.answers.set("GET /api/mfa/config", { body: { api: { selectFactor: "/from-server" } } });
    const slowFetch = box.window.fetch as (u: string, i?: RequestInit) => Promise<Response>;
    box.window.fetch = async (u: string, i?: RequestInit) => {
      await gate;
      return slowFetch(u, i);
    };
    const c = new sdk.Client({ autoRedirect: false });
    const injected = c.init({ config: { api: { selectFactor: "/injected" } } });
    release();
    await Promise.all([c.ready, injected]);
    expect((c.apiClient.config as { api: { selectFactor: string } }).api.selectFactor).toBe("/injected");
  });
});

describe("failures", () => {
  it("a non-2xx answer throws a PlatformMfaError with code, status and body, and dispatches mfa:failed", async () => {
    const failure = {
      success: false,
      error: "The code is not valid",
      failureType: "MFA_FACTOR_VERIFICATION_FAILED",
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      attemptsMade: 1,
      maxAttempts: 5,
    };
    box.answers.set("POST /login/mfa-ott", { status: 401, body: failure });
    const c = client();
    const events: { operation: string; code: string }[] = [];
    c.addEventListener("mfa:failed", (e) => {
      const d = (e as CustomEvent<{ operation: string; error: MfaError }>).detail;
      events.push({ operation: d.operation, code: d.error.code });
    });
    const error = await rejection(c.verifyOtt("000000", "admin"));
    expect(error).toBeInstanceOf(sdk.PlatformMfaError);
    expect(error).toMatchObject({
      name: "PlatformMfaError",
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      status: 401,
      message: "The code is not valid",
      attemptsMade: 1,
      maxAttempts: 5,
      method: "POST",
      url: "/login/mfa-ott",
    });
    expect(error.body).toEqual(failure);
    expect(events).toEqual([{ operation: "verifyOtt", code: "MFA_FACTOR_VERIFICATION_FAILED" }]);
  });

  it("a failed primary login is a PlatformMfaError but not an MFA failure event", async () => {
    box.answers.set("POST /login", {
      status: 401,
      body: {
        success: false,
        error: "Bad credentials",
        failureType: "BAD_CREDENTIALS",
        code: "BAD_CREDENTIALS",
      },
    });
    const c = client();
    let failed = 0;
    c.addEventListener("mfa:failed", () => failed++);
    expect((await rejection(c.apiClient.loginForm("admin", "nope"))).code).toBe("BAD_CREDENTIALS");
    expect(failed).toBe(0);
  });

  it("an answer that is not JSON is an error (HTTP_<status>, UNEXPECTED_RESPONSE); a network failure is NETWORK_ERROR", async () => {
    const c = client();
    box.answers.set("POST /mfa/select-factor", { status: 502, body: "<html>", contentType: "text/html" });
    expect(await rejection(c.apiClient.selectFactor("OTT"))).toMatchObject({ code: "HTTP_502", status: 502 });
    box.answers.set("POST /mfa/select-factor", { status: 200, body: "<html>", contentType: "text/html" });
    expect(await rejection(c.apiClient.selectFactor("OTT"))).toMatchObject({
      code: "UNEXPECTED_RESPONSE",
      status: 200,
    });
    box.window.fetch = () => Promise.reject(new TypeError("Failed to fetch"));
    expect(await rejection(c.apiClient.selectFactor("OTT"))).toMatchObject({
      code: "NETWORK_ERROR",
      status: 0,
    });
  });

  it("an error names the request that failed: method and path (never the query), in the message of a wiring failure", async () => {
    const c = client();
    box.answers.set("POST /mfa/select-factor", {
      status: 404,
      body: { code: "NOT_FOUND", error: "Not found" },
    });
    const notFound = await rejection(c.apiClient.selectFactor("OTT"));
    expect(notFound).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
      method: "POST",
      url: "/mfa/select-factor",
    });
    expect(notFound.message).toBe("Not found (POST /mfa/select-factor)");
    box.window.fetch = () => Promise.reject(new TypeError("Failed to fetch"));
    const loader = new sdk.ApiClient({});
    const offline = await rejection(loader.init({ configUrl: "/api/mfa/config?secret=1" }));
    expect(offline).toMatchObject({ code: "NETWORK_ERROR", method: "GET", url: "/api/mfa/config" });
    expect(offline.message).toBe("The MFA configuration could not be loaded (GET /api/mfa/config)");
  });

  it("an ended MFA session is forgotten (no stale X-MFA-Session-Id)", async () => {
    box.answers.set("POST /login", { body: MFA_REQUIRED });
    box.answers.set("POST /login/mfa-ott", {
      status: 401,
      body: { success: false, error: "ended", code: "MFA_SESSION_EXPIRED" },
    });
    const c = client();
    await c.apiClient.loginForm("admin", "admin");
    await rejection(c.verifyOtt("123456"));
    expect(c.state.mfaSessionId).toBeUndefined();
  });
});

describe("results, tokens and redirects", () => {
  for (const mode of ["localStorage", "sessionStorage"] as const) {
    it(`tokenPersistence ${mode}: tokens under platform_* keys there only; logout clears them`, async () => {
      const c = client({ tokenPersistence: mode });
      c.handleAuthenticationResult(TOKENS);
      const store = mode === "localStorage" ? box.localStorage : box.sessionStorage;
      const other = mode === "localStorage" ? box.sessionStorage : box.localStorage;
      expect(store.items.get("platform_access_token")).toBe("access-1");
      expect(store.items.get("platform_refresh_token")).toBe("refresh-1");
      expect(Number(store.items.get("platform_token_expiry"))).toBeGreaterThan(Date.now() + 890_000);
      expect(Number(store.items.get("platform_refresh_expiry"))).toBeGreaterThan(Date.now() + 86_000_000);
      expect([...other.items.keys()].filter((k) => k.includes("token"))).toEqual([]);
      expect(c.accessToken()).toBe("access-1");

      box.answers.set("POST /logout", { body: { success: true, redirectUrl: "/login?logout" } });
      await c.logout();
      expect(JSON.parse(last().body ?? "")).toEqual({ refreshToken: "refresh-1" });
      expect(last().headers.authorization).toBe("Bearer access-1");
      expect([...store.items.keys()].filter((k) => k !== "platform_device_id")).toEqual([]);
      expect(c.accessToken()).toBeUndefined();
    });
  }

  it("tokenPersistence memory (default): nothing in storage, clearClientState forgets them", () => {
    const c = client();
    expect(c.options.tokenPersistence).toBe("memory");
    c.persistTokensToStorage(TOKENS);
    expect(c.accessToken()).toBe("access-1");
    expect([...box.localStorage.items.keys(), ...box.sessionStorage.items.keys()]).toEqual([]);
    c.clearClientState();
    expect(c.accessToken()).toBeUndefined();
  });

  it("clearPersistedTokens removes stored tokens; expired tokens are not handed out", () => {
    const c = client({ tokenPersistence: "localStorage" });
    c.persistTokensToStorage({ ...TOKENS, expiresIn: 900 });
    c.clearPersistedTokens();
    expect(box.localStorage.items.has("platform_access_token")).toBe(false);
    c.persistTokensToStorage(TOKENS);
    box.localStorage.items.set("platform_token_expiry", String(Date.now() - 1));
    expect(c.accessToken()).toBeUndefined();
  });

  it("logout clears local state even when the server call fails", async () => {
    box.answers.set("POST /logout", { status: 403, body: { code: "CSRF_TOKEN_INVALID" } });
    const c = client({ tokenPersistence: "localStorage" });
    c.persistTokensToStorage(TOKENS);
    expect((await rejection(c.logout())).code).toBe("CSRF_TOKEN_INVALID");
    expect(box.localStorage.items.has("platform_access_token")).toBe(false);
  });

  it("autoRedirect follows only local redirectUrls", () => {
    const c = client({ autoRedirect: true });
    for (const url of [
      "//evil.example/x",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
      "/ok\n",
      "relative",
    ]) {
      c.handleAuthenticationResult({ success: true, redirectUrl: url });
    }
    expect(box.assigned).toEqual([]);
    c.handleAuthenticationResult({ mfaRequired: true, redirectUrl: "/not-final" });
    c.handleAuthenticationResult({ success: false, redirectUrl: "/failed" });
    c.handleAuthenticationResult({ success: true, redirectUrl: "/account?tab=1" });
    expect(box.assigned).toEqual(["/account?tab=1"]);
    client({ autoRedirect: false }).handleAuthenticationResult({ success: true, redirectUrl: "/x" });
    expect(box.assigned).toEqual(["/account?tab=1"]);
  });

  it("dispatches mfa:required after a primary step and mfa:completed after the last factor", async () => {
    box.answers.set("POST /login", { body: MFA_REQUIRED });
    box.answers.set("POST /login/mfa-ott", { body: TOKENS });
    const c = client();
    const seen: string[] = [];
    for (const type of ["mfa:required", "mfa:completed", "mfa:failed"]) {
      c.addEventListener(type, (e) => {
        const d = (e as CustomEvent<{ result: Answer; state: Answer }>).detail;
        seen.push(`${type}:${String(d.result?.mfaSessionId ?? d.result?.redirectUrl)}`);
      });
    }
    await c.apiClient.loginForm("admin", "admin");
    await c.verifyOtt("123456");
    expect(seen).toEqual(["mfa:required:mfa-1", "mfa:completed:/home"]);
    // verifyOtt applied the final answer: tokens kept (memory).
    expect(c.accessToken()).toBe("access-1");
  });
});
