import { createHash } from "node:crypto";
import { AuditLog, SessionStore } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type IdentityTestServer,
  JSON_ACCEPT,
  me,
  newOutboxFile,
  primaryForm,
  SESSION_COOKIE,
  verify,
  startFactorFlowServer,
} from "./mfa-test-support.js";

/** A session id's handle as the store names it (the SHA-256 of the id, base64url). */
const sessionStoreHandle = (id: string) => createHash("sha256").update(id, "utf8").digest("base64url");

// One server: one MFA flow (form login, e-mailed code), admin challenged, user by password alone.
describe("the account page and ending sessions (GET /account, /account/sessions/**, /api/account/sessions/**)", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startFactorFlowServer({ outbox: file });
  });
  afterAll(() => s.close());

  /** Admin signed in with the e-mailed code: a second factor proved just now. */
  async function adminSession(): Promise<Browser> {
    const b = new Browser(s.url);
    const { code } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    expect((await verify(b, await csrfOfSession(b), code)).status).toBe(200);
    return b;
  }
  const handleOf = (b: Browser) => sessionStoreHandle(b.cookies.get(SESSION_COOKIE)!);
  const signedIn = async (b: Browser) => (await me(b)).status === 200;
  const endForm = async (b: Browser, fields: Record<string, string>, path = "/account/sessions/end") =>
    b.postForm(path, { _csrf: await csrfOfSession(b), ...fields });

  it("shows factors, passkeys, sessions (the current one marked) and devices; escaped; no secret", async () => {
    const a = await adminSession();
    const other = await adminSession();
    const page = await a.fetch("/account");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain('id="accountUsername">admin<');
    expect(html).toContain(`data-session="${handleOf(a)}"`);
    expect(html).toContain(`data-session="${handleOf(other)}"`);
    expect(html).toContain("this session");
    expect(html).toContain('data-factor="OTT"');
    expect(html).not.toContain(a.cookies.get(SESSION_COOKIE)!);
    expect(html).not.toMatch(/<script/i);
    const api = (await (await a.fetch("/api/account", { headers: { ...JSON_ACCEPT } })).json()) as {
      sessions: { handle: string; current: boolean }[];
      devices: { handle: string; current: boolean }[];
    };
    expect(api.sessions.filter((x) => x.current).map((x) => x.handle)).toEqual([handleOf(a)]);
    expect(api.devices.length).toBeGreaterThan(0);
    expect(api.devices.some((d) => d.current)).toBe(true);
    expect((await new Browser(s.url).fetch("/account", { headers: { ...JSON_ACCEPT } })).status).toBe(401);
  });

  it("ends one other session after a fresh factor, audited; the ended browser is signed out", async () => {
    const a = await adminSession();
    const b = await adminSession();
    const res = await endForm(a, { handle: handleOf(b) });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/account?done=ended");
    expect(await signedIn(b)).toBe(false);
    expect(await signedIn(a)).toBe(true);
    expect(await (await a.fetch("/account?done=ended")).text()).toContain("The session was ended.");
    const audited = await s.platform.resolve(AuditLog).query({ type: "account.sessions.ended" });
    expect(audited.at(-1)).toMatchObject({ principal: "admin", data: { scope: "one", count: 1 } });
  });

  it("refuses the current session, another user's, an unknown or malformed handle, and a form without CSRF", async () => {
    const a = await adminSession();
    const u = new Browser(s.url);
    expect((await primaryForm(u, "user", "password", true)).status).toBe(200);
    const sessions = s.platform.resolve(SessionStore);
    const countBefore = (await sessions.listByUser((await me(a)).body.userId as string)).length;

    const current = await endForm(a, { handle: handleOf(a) });
    expect(current.headers.get("location")).toBe("/account?done=current");
    expect(await signedIn(a)).toBe(true);
    // Another user's session is "not found", exactly as an unknown handle, and stays open.
    expect((await endForm(a, { handle: handleOf(u) })).headers.get("location")).toBe(
      "/account?done=not-found",
    );
    expect(await signedIn(u)).toBe(true);
    const unknown = sessionStoreHandle("no-such-session");
    expect((await endForm(a, { handle: unknown })).headers.get("location")).toBe("/account?done=not-found");
    for (const bad of ["", "x", "a".repeat(44), `${"a".repeat(42)}/`, "a".repeat(100_000)]) {
      const res = await endForm(a, { handle: bad });
      expect(res.status, bad.slice(0, 10)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe("VALIDATION_FAILED");
    }
    expect((await a.postForm("/account/sessions/end", { handle: handleOf(u) })).status).toBe(403);
    expect((await sessions.listByUser((await me(a)).body.userId as string)).length).toBe(countBefore);
  });

  it("sends a caller without a fresh second factor to the step-up (page 303, JSON 401), changing nothing", async () => {
    const u = new Browser(s.url);
    expect((await primaryForm(u, "user", "password", true)).status).toBe(200);
    const keep = new Browser(s.url);
    expect((await primaryForm(keep, "user", "password", true)).status).toBe(200);
    const page = await codeAfter(file, "user", () => endForm(u, {}, "/account/sessions/end-others"));
    expect(page.result.status).toBe(303);
    expect(page.result.headers.get("location")).toMatch(/^\/mfa\//);
    const csrf = await csrfOfSession(u);
    const api = await u.postJson("/api/account/sessions/end-others", {}, { "x-csrf-token": csrf });
    expect(api.status).toBe(401);
    expect(((await api.json()) as { code: string }).code).toBe("MFA_CHALLENGE_REQUIRED");
    const one = await u.fetch(`/api/account/sessions/${handleOf(keep)}`, {
      method: "DELETE",
      headers: { "x-csrf-token": await csrfOfSession(u), ...JSON_ACCEPT },
    });
    expect(one.status).toBe(401);
    expect((await endForm(u, { handle: handleOf(keep) })).status).toBe(303);
    expect(await signedIn(keep)).toBe(true);
    // Completing the step-up the form started brings the browser back to the page.
    const done = await verify(u, await csrfOfSession(u), page.code);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ stepUp: true, redirectUrl: "/account" });
    expect((await endForm(u, {}, "/account/sessions/end-others")).headers.get("location")).toBe(
      "/account?done=ended-others",
    );
    expect(await signedIn(keep)).toBe(false);
  });

  it("the JSON API ends one session (204, then 404) and every other one ({ ended }), keeping the caller's", async () => {
    const a = await adminSession();
    const b = await adminSession();
    const c = await adminSession();
    const csrf = { "x-csrf-token": await csrfOfSession(a) };
    const del = (handle: string) =>
      a.fetch(`/api/account/sessions/${handle}`, { method: "DELETE", headers: { ...csrf, ...JSON_ACCEPT } });
    expect((await del(handleOf(b))).status).toBe(204);
    expect((await del(handleOf(b))).status).toBe(404);
    expect((await del(handleOf(a))).status).toBe(409);
    expect((await del("not-a-handle")).status).toBe(400);
    expect(
      (await new Browser(s.url).fetch(`/api/account/sessions/${handleOf(c)}`, { method: "DELETE" })).status,
    ).toBeGreaterThanOrEqual(401);
    const res = await a.postJson("/api/account/sessions/end-others", {}, csrf);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ended: number }).ended).toBeGreaterThanOrEqual(1);
    expect(await signedIn(c)).toBe(false);
    expect(await signedIn(a)).toBe(true);
    const api = (await (await a.fetch("/api/account", { headers: { ...JSON_ACCEPT } })).json()) as {
      sessions: { current: boolean }[];
    };
    expect(api.sessions.map((x) => x.current)).toEqual([true]);
  });
});
