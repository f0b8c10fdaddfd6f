import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform } from "@keyward/cli";
import { type Platform, ServerAddress } from "@keyward/core";
import {
  AuditSink,
  LoginThrottle,
  MfaLockouts,
  TotpEnrolmentStore,
  UserRepository,
} from "@keyward/core/ports";
import { readFile, rm } from "node:fs/promises";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryAuditSink } from "../../packages/core/src/kernel/in-memory-audit-sink.js";
import { Browser } from "./identity-test-server.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

let base = "";
let platform: Platform;
let close: () => Promise<void>;
const outbox = join(mkdtempSync(join(tmpdir(), "users-admin-")), "outbox.jsonl");

beforeAll(async () => {
  const demo = await buildDemoPlatform(
    {
      properties: {
        ...LOW_COST_SCRYPT,
        // admin signs in without an emailed code here; the MFA tests and the CLI test cover that path.
        "platform.auth.mfa.requiredAuthorities": "",
        "platform.auth.ott.outbox-file": outbox,
      },
    },
    {},
  );
  platform = demo.platform;
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  platform.resolve(ServerAddress).port = server.port;
  base = `http://localhost:${server.port}`;
  close = async () => {
    await server.close(true);
    await platform.stop();
    await rm(outbox, { force: true });
  };
});
afterAll(() => close());

async function tokenOf(username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

describe("users admin API", () => {
  it("lists, creates, reads: ADMIN only, never a password hash", async () => {
    const admin = await tokenOf("admin", "admin");
    const list = await api(admin, "GET", "/admin/api/users");
    expect(list.status).toBe(200);
    expect(list.body.map((u: { username: string }) => u.username)).toEqual(
      expect.arrayContaining(["admin", "user"]),
    );
    expect(list.text).not.toContain("passwordHash");
    expect(list.text).not.toContain("$scrypt$");
    expect(list.headers.get("cache-control")).toBe("no-store");

    const created = await api(admin, "POST", "/admin/api/users", {
      username: "dora",
      password: "dora-password-1",
      authorities: ["ROLE_USER"],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/admin/api/users/${created.body.id}`);
    expect(created.body).toMatchObject({ username: "dora", enabled: true, locked: false, hasPassword: true });
    expect(created.text).not.toContain("dora-password-1");
    expect((await api(admin, "GET", `/admin/api/users/${created.body.id}`)).body.username).toBe("dora");
    expect(await tokenOf("dora", "dora-password-1")).toBeTruthy();
    const filtered = await api(admin, "GET", "/admin/api/users?q=DOR&limit=5");
    expect(filtered.body.map((u: { username: string }) => u.username)).toEqual(["dora"]);
    const events = (platform.resolve(AuditSink) as InMemoryAuditSink).events();
    expect(events.some((e) => e.type === "user.created" && e.principal === "admin")).toBe(true);
    expect(JSON.stringify(events)).not.toContain("dora-password-1");
  });

  it("refuses non-admins (403) and anonymous callers (401)", async () => {
    const user = await tokenOf("user", "password");
    expect((await api(user, "GET", "/admin/api/users")).status).toBe(403);
    expect(
      (await api(user, "POST", "/admin/api/users", { username: "x1", password: "long-enough" })).status,
    ).toBe(403);
    const anonymous = await fetch(`${base}/admin/api/users`, { headers: { accept: "application/json" } });
    expect(anonymous.status).toBe(401);
  });

  it("needs CSRF from a session caller", async () => {
    const b = new Browser(base);
    const csrf = await b.csrfFrom("/login");
    expect((await b.postForm("/login", { username: "admin", password: "admin", _csrf: csrf })).status).toBe(
      302,
    );
    const without = await b.fetch("/admin/api/users", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "csrf-less", password: "long-enough" }),
    });
    expect(without.status).toBe(403);
    expect(((await without.json()) as { code: string }).code).toBe("CSRF_TOKEN_INVALID");
    expect(await platform.resolve(UserRepository).findByUsername("csrf-less")).toBeUndefined();
    const token = await b.csrfFrom("/");
    const withToken = await b.fetch("/admin/api/users", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": token },
      body: JSON.stringify({ username: "with-csrf", password: "long-enough" }),
    });
    expect(withToken.status).toBe(201);
  });

  it.each([
    ["malformed JSON", "{", "MALFORMED_JSON", 400],
    ["missing username", { password: "long-enough" }, "VALIDATION_FAILED", 400],
    ["short password", { username: "eve1", password: "short" }, "VALIDATION_FAILED", 400],
    ["oversized username", { username: "u".repeat(300), password: "long-enough" }, "VALIDATION_FAILED", 400],
    [
      "unknown field",
      { username: "eve2", password: "long-enough", passwordHash: "$scrypt$x" },
      "VALIDATION_FAILED",
      400,
    ],
    [
      "hostile authority",
      { username: "eve3", authorities: ["ROLE_ADMIN<script>"] },
      "VALIDATION_FAILED",
      400,
    ],
    ["taken username", { username: " ADMIN ", password: "long-enough" }, "CONFLICT", 409],
    ["a zero-width username", { username: "\u200b", password: "long-enough" }, "VALIDATION_FAILED", 400],
    ["a control character", { username: "vi\nctim", password: "long-enough" }, "VALIDATION_FAILED", 400],
    ["a bidi override", { username: "ad\u202emin", password: "long-enough" }, "VALIDATION_FAILED", 400],
    ["a blank username", { username: "   ", password: "long-enough" }, "VALIDATION_FAILED", 400],
  ])("refuses %s with a stable code and changes nothing", async (_name, body, code, status) => {
    const admin = await tokenOf("admin", "admin");
    const before = await platform.resolve(UserRepository).count();
    const res = await api(admin, "POST", "/admin/api/users", body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.text).not.toContain("long-enough");
    expect(await platform.resolve(UserRepository).count()).toBe(before);
  });

  it.each([
    ["GET", "/admin/api/users/..%2e", 400],
    ["GET", `/admin/api/users/${"x".repeat(200)}`, 400],
    ["GET", "/admin/api/users/no-such-user", 404],
    ["POST", "/admin/api/users/no-such-user/disable", 404],
    ["DELETE", "/admin/api/users", 405],
    ["GET", "/admin/api/users?limit=0", 400],
    ["GET", "/admin/api/users?limit=1&limit=2", 400],
    ["GET", "/admin/api/users?offset=-1", 400],
  ])("%s %s answers %i", async (method, path, status) => {
    const admin = await tokenOf("admin", "admin");
    expect((await api(admin, method, path)).status).toBe(status);
  });

  it("disables (sign-in refused, refresh tokens revoked) and enables; an admin cannot disable themself", async () => {
    const admin = await tokenOf("admin", "admin");
    const frank = await api(admin, "POST", "/admin/api/users", {
      username: "frank",
      password: "frank-password",
    });
    const login = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "frank", password: "frank-password" }),
    });
    const { refreshToken, accessToken } = (await login.json()) as {
      refreshToken: string;
      accessToken: string;
    };
    expect((await api(accessToken, "GET", "/api/me")).status).toBe(200);
    const disabled = await api(admin, "POST", `/admin/api/users/${frank.body.id}/disable`);
    expect(disabled.body.enabled).toBe(false);
    const refused = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "frank", password: "frank-password" }),
    });
    expect(refused.status).toBe(401);
    const refresh = await fetch(`${base}/api/token/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refreshToken }),
    });
    expect(refresh.status).toBe(401);
    // The access token frank held is refused at once, not at its expiry.
    expect((await api(accessToken, "GET", "/api/me")).status).toBe(401);
    expect((await api(admin, "POST", `/admin/api/users/${frank.body.id}/enable`)).body.enabled).toBe(true);
    expect(await tokenOf("frank", "frank-password")).toBeTruthy();
    const me = await api(admin, "GET", "/api/me");
    const self = await api(admin, "POST", `/admin/api/users/${me.body.id ?? me.body.userId}/disable`);
    expect(self.status).toBe(409);
  });

  it("unlocks: clears the lock flag, the login throttle from every address and the MFA lockout", async () => {
    const admin = await tokenOf("admin", "admin");
    const gina = await api(admin, "POST", "/admin/api/users", {
      username: "gina",
      password: "gina-password",
    });
    const throttle = platform.resolve(LoginThrottle);
    for (const address of ["203.0.113.1", "127.0.0.1"]) {
      for (let i = 0; i < 10; i++) await throttle.recordFailure({ username: "gina", remoteAddress: address });
    }
    const lockouts = platform.resolve(MfaLockouts);
    await lockouts.lock(gina.body.id, Date.now() + 3_600_000);
    const users = platform.resolve(UserRepository);
    const stored = (await users.findById(gina.body.id))!;
    await users.update({ ...stored, locked: true });
    expect((await throttle.check({ username: "gina", remoteAddress: "127.0.0.1" })).allowed).toBe(false);

    const unlocked = await api(admin, "POST", `/admin/api/users/${gina.body.id}/unlock`);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.locked).toBe(false);
    expect((await throttle.check({ username: "gina", remoteAddress: "127.0.0.1" })).allowed).toBe(true);
    expect((await throttle.check({ username: "gina", remoteAddress: "203.0.113.1" })).allowed).toBe(true);
    expect(await lockouts.lockedUntil(gina.body.id)).toBeUndefined();
    expect(await tokenOf("gina", "gina-password")).toBeTruthy();
  });

  it("sets a new password (old one refused, refresh tokens revoked)", async () => {
    const admin = await tokenOf("admin", "admin");
    const hal = await api(admin, "POST", "/admin/api/users", { username: "hal", password: "hal-password-1" });
    const set = await api(admin, "POST", `/admin/api/users/${hal.body.id}/reset-password`, {
      password: "hal-password-2",
    });
    expect(set.status).toBe(200);
    expect(await tokenOf("hal", "hal-password-2")).toBeTruthy();
    const old = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "hal", password: "hal-password-1" }),
    });
    expect(old.status).toBe(401);
    expect((await api(admin, "POST", `/admin/api/users/${hal.body.id}/reset-password`, {})).status).toBe(400);
    expect(
      (await api(admin, "POST", `/admin/api/users/${hal.body.id}/reset-password`, { password: "x" })).status,
    ).toBe(400);
  });

  it("mails a single-use reset link; its page never spends the token; the form sets the password once", async () => {
    const admin = await tokenOf("admin", "admin");
    const ivy = await api(admin, "POST", "/admin/api/users", { username: "ivy" });
    expect(ivy.body.hasPassword).toBe(false);
    const sent = await api(admin, "POST", `/admin/api/users/${ivy.body.id}/reset-password`, {
      sendLink: true,
    });
    expect(sent.status).toBe(200);
    expect(sent.text).not.toContain("token");
    const line = (await readFile(outbox, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { channel: string; username: string; link: string })
      .reverse()
      .find((m) => m.channel === "password-reset" && m.username === "ivy")!;
    expect(line.link).toMatch(new RegExp(`^${base}/reset-password\\?token=`));
    const events = JSON.stringify((platform.resolve(AuditSink) as InMemoryAuditSink).events());
    const token = new URL(line.link).searchParams.get("token")!;
    expect(events).not.toContain(token);

    const b = new Browser(base);
    const page = await b.fetch(`/reset-password?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="password"');
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    // A reset token is no magic link.
    const asMagicLink = await b.postForm("/login/ott", { token, _csrf: csrf });
    expect(asMagicLink.headers.get("location") ?? "").not.toBe("/");
    const weak = await b.postForm("/reset-password", { token, password: "short", _csrf: csrf });
    expect(weak.status).toBe(400);
    const done = await b.postForm("/reset-password", { token, password: "ivy-new-password", _csrf: csrf });
    expect(done.status).toBe(200);
    expect(await tokenOf("ivy", "ivy-new-password")).toBeTruthy();
    const again = await b.postForm("/reset-password", { token, password: "ivy-other-password", _csrf: csrf });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("invalid");
    const json = await fetch(`${base}/reset-password`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ token: "forged", password: "long-enough-1" }),
    });
    expect([400, 403]).toContain(json.status);
  });
});

describe("users admin API: the factor reset (a lost phone)", () => {
  const noticesFor = async (username: string) =>
    (await readFile(outbox, "utf8").catch(() => ""))
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { channel: string; username: string; notice?: string; token: string })
      .filter((m) => m.channel === "account-notice" && m.username === username);
  /** A new user (through the API) with a confirmed authenticator app (through its store); its id. */
  const userWithApp = async (admin: string, username: string) => {
    const created = await api(admin, "POST", "/admin/api/users", { username, password: "long-enough-1" });
    const userId = created.body.id as string;
    const store = platform.resolve(TotpEnrolmentStore);
    await store.begin({ userId, sealedSecret: "sealed-for-the-test", createdAt: 1 });
    expect(await store.confirm(userId, "sealed-for-the-test", 1)).toBe(true);
    return userId;
  };

  it("removes the authenticator app, audits it, tells the user; ADMIN only", async () => {
    const admin = await tokenOf("admin", "admin");
    const id = await userWithApp(admin, "lost-phone");
    const path = `/admin/api/users/${id}/factors/reset`;
    // Anonymous: no session, so no CSRF token either (403), or no credentials at all (401).
    expect([401, 403]).toContain((await fetch(`${base}${path}`, { method: "POST" })).status);
    expect((await api(await tokenOf("user", "password"), "POST", path)).status).toBe(403);
    expect(await platform.resolve(TotpEnrolmentStore).find(id)).toBeDefined();

    const reset = await api(admin, "POST", path);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ removed: ["TOTP"], user: { id, username: "lost-phone" } });
    expect(reset.headers.get("cache-control")).toBe("no-store");
    expect(await platform.resolve(TotpEnrolmentStore).find(id)).toBeUndefined();
    const audit = (platform.resolve(AuditSink) as InMemoryAuditSink).events();
    expect(audit.find((e) => e.type === "user.factors-reset" && e.data?.userId === id)).toMatchObject({
      principal: "admin",
      data: { removed: ["TOTP"] },
    });
    await expect.poll(() => noticesFor("lost-phone")).toHaveLength(1);
    const [notice] = await noticesFor("lost-phone");
    expect(notice).toMatchObject({ token: "" });
    expect(notice?.notice).toContain("authenticator app");

    // Nothing left: removed is empty and the user is not told again.
    expect((await api(admin, "POST", path)).body.removed).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    expect(await noticesFor("lost-phone")).toHaveLength(1);
  });

  it("answers 404 for an unknown user, 400 for a hostile id, 405 for another method", async () => {
    const admin = await tokenOf("admin", "admin");
    expect((await api(admin, "POST", "/admin/api/users/no-such-user/factors/reset")).status).toBe(404);
    for (const id of ["a%2F..%2Fb", "x".repeat(129), "%00", "a.b"]) {
      const res = await api(admin, "POST", `/admin/api/users/${id}/factors/reset`);
      expect([400, 404], id.slice(0, 12)).toContain(res.status);
      expect(res.status, id.slice(0, 12)).not.toBe(500);
    }
    expect((await api(admin, "GET", "/admin/api/users/no-such-user/factors/reset")).status).toBe(405);
  });

  it("deleting an account removes its authenticator app too", async () => {
    const admin = await tokenOf("admin", "admin");
    const id = await userWithApp(admin, "leaving");
    expect((await api(admin, "DELETE", `/admin/api/users/${id}`)).status).toBe(204);
    expect(await platform.resolve(TotpEnrolmentStore).find(id)).toBeUndefined();
  });
});
