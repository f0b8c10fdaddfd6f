import { UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountStanding } from "../../../packages/core/src/identity/users/standing/account-standing.js";
import { json, NO_MFA_FOR_ADMINS, type RunningDemo, seedUser, startDemo } from "../../support/demo-server.js";
import { Browser } from "../identity-test-server.js";
import { outbox, waitForLine } from "../mfa/mfa-test-support.js";

// Issue #25 item 1 (High): admin2, signed in through the form, was disabled by admin and its session
// still answered 200 on /api/me and the users API, re-enabled itself, disabled admin and created a
// new administrator. A change to an account's standing now ends every session and token of it before
// the administrator's answer returns.

let demo: RunningDemo;

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
});
afterAll(() => demo.close());

async function tokenOf(username: string, password: string): Promise<string> {
  const res = await fetch(`${demo.base}/api/login`, json("POST", { username, password }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });

async function formSession(username: string, password: string): Promise<{ b: Browser; csrf: string }> {
  const b = new Browser(demo.base);
  const csrf = await b.csrfFrom("/login");
  expect((await b.postForm("/login", { username, password, _csrf: csrf })).status).toBe(302);
  return { b, csrf: await b.csrfFrom("/") };
}

async function idOf(username: string): Promise<string> {
  return (await demo.platform.resolve(UserRepository).findByUsername(username))!.id;
}

async function admin(path: string, method: string, body: unknown = {}): Promise<Response> {
  const token = await tokenOf("admin", "admin");
  return fetch(`${demo.base}${path}`, json(method, body, bearer(token)));
}

describe("a change to an account's standing ends its sessions and tokens at once", () => {
  it("a disabled administrator's browser session can no longer act (the attacker's sequence)", async () => {
    await seedUser(demo.platform, "boss", "boss-pass", ["ROLE_USER", "ROLE_ADMIN"]);
    const { b, csrf } = await formSession("boss", "boss-pass");
    const headers = { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf };
    expect((await b.fetch("/api/me", { headers })).status).toBe(200);
    const bossId = await idOf("boss");
    expect((await admin(`/admin/api/users/${bossId}/disable`, "POST")).status).toBe(200);
    expect((await b.fetch("/api/me", { headers })).status).toBe(401);
    expect((await b.fetch("/admin/api/users", { headers })).status).toBe(401);
    const post = (path: string, body: unknown) =>
      b.fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    expect((await post(`/admin/api/users/${bossId}/enable`, {})).status).toBeGreaterThanOrEqual(401);
    expect((await post(`/admin/api/users/${await idOf("admin")}/disable`, {})).status).toBeGreaterThanOrEqual(
      401,
    );
    const created = await post("/admin/api/users", {
      username: "mole",
      password: "mole-pass-123",
      authorities: ["ROLE_ADMIN"],
    });
    expect(created.status).toBeGreaterThanOrEqual(401);
    const users = demo.platform.resolve(UserRepository);
    expect((await users.findById(bossId))?.enabled).toBe(false);
    expect((await users.findByUsername("admin"))?.enabled).toBe(true);
    expect(await users.findByUsername("mole")).toBeUndefined();
  });

  it("a disabled user's session and token end; enabled again, they must sign in anew", async () => {
    await seedUser(demo.platform, "dana", "dana-pass");
    const { b } = await formSession("dana", "dana-pass");
    const token = await tokenOf("dana", "dana-pass");
    const danaId = await idOf("dana");
    expect((await admin(`/admin/api/users/${danaId}/disable`, "POST")).status).toBe(200);
    expect((await b.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
    expect((await fetch(`${demo.base}/api/me`, { headers: bearer(token) })).status).toBe(401);
    expect((await admin(`/admin/api/users/${danaId}/enable`, "POST")).status).toBe(200);
    expect((await fetch(`${demo.base}/api/me`, { headers: bearer(token) })).status).toBe(401);
    expect(
      (await fetch(`${demo.base}/api/me`, { headers: bearer(await tokenOf("dana", "dana-pass")) })).status,
    ).toBe(200);
  });

  it("a password set by an administrator, and a change of authorities, end the sign-ins made before", async () => {
    await seedUser(demo.platform, "erin", "erin-pass", ["ROLE_USER", "ROLE_ADMIN"]);
    const erinId = await idOf("erin");
    const first = await formSession("erin", "erin-pass");
    expect(
      (await admin(`/admin/api/users/${erinId}/reset-password`, "POST", { password: "erin-new-pass" }))
        .status,
    ).toBe(200);
    expect((await first.b.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
    const second = await formSession("erin", "erin-new-pass");
    const token = await tokenOf("erin", "erin-new-pass");
    const changed = await admin(`/admin/api/users/${erinId}/authorities`, "PUT", {
      authorities: ["ROLE_USER"],
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ authorities: ["ROLE_USER"] });
    expect(
      (await second.b.fetch("/admin/api/users", { headers: { accept: "application/json" } })).status,
    ).toBe(401);
    expect((await fetch(`${demo.base}/admin/api/users`, { headers: bearer(token) })).status).toBe(401);
    const fresh = await tokenOf("erin", "erin-new-pass");
    expect((await fetch(`${demo.base}/admin/api/users`, { headers: bearer(fresh) })).status).toBe(403);
  });

  it("a sign-in made before a change stops standing even when its session was not deleted (the stamp)", async () => {
    await seedUser(demo.platform, "finn", "finn-pass");
    const { b } = await formSession("finn", "finn-pass");
    const token = await tokenOf("finn", "finn-pass");
    const users = demo.platform.resolve(UserRepository);
    const finn = (await users.findByUsername("finn"))!;
    // What a sign-in racing the change would hold: a session and a token from before the new stamp.
    await users.update({ ...finn, securityStamp: "changed-behind-its-back" });
    await demo.platform.resolve(AccountStanding).changed(finn.id);
    expect((await b.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
    expect((await fetch(`${demo.base}/api/me`, { headers: bearer(token) })).status).toBe(401);
    expect(
      (await fetch(`${demo.base}/api/me`, { headers: bearer(await tokenOf("finn", "finn-pass")) })).status,
    ).toBe(200);
  });

  it("a deleted user's session and token end; the users API answers 204, then 404", async () => {
    await seedUser(demo.platform, "gus", "gus-pass");
    const { b } = await formSession("gus", "gus-pass");
    const token = await tokenOf("gus", "gus-pass");
    const gusId = await idOf("gus");
    expect((await admin(`/admin/api/users/${gusId}`, "DELETE")).status).toBe(204);
    expect((await admin(`/admin/api/users/${gusId}`, "DELETE")).status).toBe(404);
    expect((await b.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
    expect((await fetch(`${demo.base}/api/me`, { headers: bearer(token) })).status).toBe(401);
  });

  it("refuses malformed authorities bodies with 400 and changes nothing", async () => {
    const userId = await idOf("user");
    for (const body of [
      {},
      { authorities: "ROLE_ADMIN" },
      { authorities: ["role admin"] },
      { authorities: ["ROLE_USER"], extra: 1 },
      { authorities: Array(65).fill("ROLE_X") },
    ]) {
      const res = await admin(`/admin/api/users/${userId}/authorities`, "PUT", body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(await res.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    expect((await demo.platform.resolve(UserRepository).findById(userId))?.authorities).toEqual([
      "ROLE_USER",
    ]);
  });

  it("links mailed before a standing change die with it: a reset link after a disable or a new password, a magic link after a reset", async () => {
    await seedUser(demo.platform, "hana", "hana-pass");
    const hanaId = await idOf("hana");
    const mailed = async (channel: string, action: () => Promise<unknown>) => {
      const before = outbox(demo.outboxFile).length;
      await action();
      for (let n = before + 1; ; n++) {
        const line = await waitForLine(demo.outboxFile, n);
        if (line.channel === channel && line.username === "hana") return line.token;
      }
    };
    const resetWith = async (token: string, password: string) => {
      const b = new Browser(demo.base);
      const csrf = await b.csrfFrom(`/reset-password?token=${encodeURIComponent(token)}`);
      return b.postForm("/reset-password", { token, password, _csrf: csrf });
    };
    // A reset link, then the administrator sets a password: the link is dead.
    const link1 = await mailed("password-reset", () =>
      admin(`/admin/api/users/${hanaId}/reset-password`, "POST", { sendLink: true }),
    );
    expect(
      (await admin(`/admin/api/users/${hanaId}/reset-password`, "POST", { password: "hana-admin-set-1" }))
        .status,
    ).toBe(200);
    expect((await resetWith(link1, "attacker-Chosen-9")).status).toBe(400);
    // A reset link, then a disable and an enable: the link is dead, and the administrator's password stands.
    const link2 = await mailed("password-reset", () =>
      admin(`/admin/api/users/${hanaId}/reset-password`, "POST", { sendLink: true }),
    );
    expect((await admin(`/admin/api/users/${hanaId}/disable`, "POST")).status).toBe(200);
    expect((await resetWith(link2, "attacker-Chosen-9")).status).toBe(400);
    expect((await admin(`/admin/api/users/${hanaId}/enable`, "POST")).status).toBe(200);
    expect(
      (
        await fetch(
          `${demo.base}/api/login`,
          json("POST", { username: "hana", password: "attacker-Chosen-9" }),
        )
      ).status,
    ).toBe(401);
    await tokenOf("hana", "hana-admin-set-1");
    // A magic link, then a new password: the link signs nobody in.
    const b = new Browser(demo.base);
    const magic = await mailed("email", async () => {
      const csrf = await b.csrfFrom("/login/ott");
      return b.postForm("/ott/generate", { username: "hana", _csrf: csrf });
    });
    expect(
      (await admin(`/admin/api/users/${hanaId}/reset-password`, "POST", { password: "hana-admin-set-2" }))
        .status,
    ).toBe(200);
    const csrf = await b.csrfFrom("/login/ott");
    const used = await b.postForm("/login/ott", { token: magic, _csrf: csrf });
    expect(used.headers.get("location") ?? "").not.toBe("/");
    expect((await b.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
  });
});
