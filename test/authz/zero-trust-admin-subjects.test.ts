import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerHeaders, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";
import { Browser } from "../identity/identity-test-server.js";

// Issue #12, item 13: `PUT /admin/api/zerotrust/actions/user:user` (a username) answered 200 and
// did nothing. The admin API now refuses subjects naming nobody, takes `username:<name>`, and
// `/api/me` shows the id that `user:<id>` needs.

let demo: RunningDemo;
let base = "";

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  base = demo.base;
});
afterAll(() => demo.close());

const bearer = (username: string, password: string) =>
  bearerHeaders(base, username, password, { accept: "application/json" });

async function adminSession(): Promise<{ b: Browser; csrf: string }> {
  const b = new Browser(base);
  const csrf = await b.csrfFrom("/login");
  expect((await b.postForm("/login", { username: "admin", password: "admin", _csrf: csrf })).status).toBe(
    302,
  );
  return { b, csrf: await b.csrfFrom("/") };
}

describe("zero-trust admin API subjects", () => {
  it("PUT user:<username> answers 404 SUBJECT_NOT_FOUND and stores nothing", async () => {
    const { b, csrf } = await adminSession();
    const headers = { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf };
    const put = await b.fetch("/admin/api/zerotrust/actions/user:user", {
      method: "PUT",
      headers,
      body: JSON.stringify({ action: "BLOCK" }),
    });
    expect(put.status).toBe(404);
    expect(put.headers.get("content-type")).toMatch(/application\/json/);
    expect(await put.json()).toMatchObject({ code: "SUBJECT_NOT_FOUND" });
    const list = await b.fetch("/admin/api/zerotrust/actions", { headers: { accept: "application/json" } });
    expect(await list.json()).toEqual([]);
  });

  it("/api/me shows the id; user:<that id> takes effect; username:<name> is stored under the same id", async () => {
    const user = await bearer("user", "password");
    const me = (await (await fetch(`${base}/api/me`, { headers: user })).json()) as { id: string };
    expect(me.id).toEqual(expect.any(String));
    const { b, csrf } = await adminSession();
    const headers = { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf };
    const byId = await b.fetch(`/admin/api/zerotrust/actions/user:${me.id}`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ action: "ESCALATE" }),
    });
    expect(byId.status).toBe(200);
    expect((await fetch(`${base}/api/orders`, { headers: user })).status).toBe(423);
    const byName = await b.fetch("/admin/api/zerotrust/actions/username:user", {
      method: "PUT",
      headers,
      body: JSON.stringify({ action: "ALLOW" }),
    });
    expect(byName.status).toBe(200);
    expect(await byName.json()).toMatchObject({ subject: `user:${me.id}`, action: "ALLOW", version: 2 });
    expect((await fetch(`${base}/api/orders`, { headers: user })).status).toBe(200);
    const cleared = await b.fetch("/admin/api/zerotrust/actions/username:user", {
      method: "DELETE",
      headers,
    });
    expect(await cleared.json()).toEqual({ subject: `user:${me.id}`, cleared: true });
  });

  it("answers 400 VALIDATION_FAILED to a subject with an unknown prefix, and to a write without one", async () => {
    const { b, csrf } = await adminSession();
    const headers = { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf };
    for (const path of ["/admin/api/zerotrust/actions/group:admins", "/admin/api/zerotrust/actions/"]) {
      const res = await b.fetch(path, { method: "PUT", headers, body: JSON.stringify({ action: "BLOCK" }) });
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
  });
});

describe("zero trust on the admin APIs (a static ADMIN rule checked against zero trust)", () => {
  it("an administrator held for review (ESCALATE) or challenged cannot administer, nor lift their own hold", async () => {
    const admin2 = await bearer("admin2", "admin2");
    const me = (await (await fetch(`${base}/api/me`, { headers: admin2 })).json()) as { id: string };
    const { b, csrf } = await adminSession();
    const headers = { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf };
    const put = (action: string) =>
      b.fetch(`/admin/api/zerotrust/actions/user:${me.id}`, {
        method: "PUT",
        headers,
        body: JSON.stringify({ action }),
      });
    expect((await put("ESCALATE")).status).toBe(200);
    const users = await fetch(`${base}/admin/api/users`, { headers: admin2 });
    expect(users.status).toBe(423);
    expect(await users.json()).toMatchObject({ code: "ZERO_TRUST_REVIEW_REQUIRED" });
    const created = await fetch(`${base}/admin/api/users`, {
      method: "POST",
      headers: { ...admin2, "content-type": "application/json" },
      body: JSON.stringify({
        username: "newadmin",
        password: "newadmin-pass-1",
        authorities: ["ROLE_ADMIN"],
      }),
    });
    expect(created.status).toBe(423);
    const lift = await fetch(`${base}/admin/api/zerotrust/actions/user:${me.id}`, {
      method: "DELETE",
      headers: admin2,
    });
    expect(lift.status).toBe(423);
    // The escalation review is an entry route of the sign-in chain: it waits for the chain's rules too.
    expect((await fetch(`${base}/admin/api/mfa/escalations`, { headers: admin2 })).status).toBe(423);
    const approve = await fetch(`${base}/admin/api/mfa/escalations/some-id/approve`, {
      method: "POST",
      headers: { ...admin2, "content-type": "application/json" },
      body: "{}",
    });
    expect(approve.status).toBe(423);
    expect((await put("CHALLENGE")).status).toBe(200);
    const challenged = await fetch(`${base}/admin/api/users`, { headers: admin2 });
    expect(challenged.status).toBe(401);
    expect(await challenged.json()).toMatchObject({ code: "MFA_CHALLENGE_REQUIRED" });
    expect((await fetch(`${base}/admin/api/mfa/escalations`, { headers: admin2 })).status).toBe(401);
    expect(
      (await b.fetch(`/admin/api/zerotrust/actions/user:${me.id}`, { method: "DELETE", headers })).status,
    ).toBe(200);
    expect((await fetch(`${base}/admin/api/users`, { headers: admin2 })).status).toBe(200);
  });
});
