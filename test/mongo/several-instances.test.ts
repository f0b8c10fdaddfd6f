import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { outbox, waitForLine } from "../identity/mfa/mfa-test-support.js";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  seedUser,
  startDemo,
} from "../support/demo-server.js";

// Two demo instances over ONE database (the wire double standing in for MongoDB), each with its own
// MongoClient, as two processes behind a load balancer would be: whatever one instance writes, the
// other sees, with no process-local copy of sessions, tokens, flows, counters or policies.

/** The key-encryption key both instances share (a durable KeyStore needs one, the same everywhere). */
const KEK = "several-instances-test-key-encryption-key-0123456789";
/** `carol` holds this authority: the MFA flow test's user (admin signs in without a code here). */
const MFA_ROLE = "ROLE_AUDITOR";

let double: WireDouble;
let a: RunningDemo;
let b: RunningDemo;

async function instance(dbName: string): Promise<RunningDemo> {
  return startDemo(
    {},
    {
      "platform.keys.encryption-key": KEK,
      "platform.auth.mfa.requiredAuthorities": MFA_ROLE,
      // The default zero-trust cache period (30 s) stays: an administrator's action must reach the
      // other instance through the change counter, within platform.changes.poll-interval (2 s).
    },
    { plugins: [mongoPlugin({ uri: double.uri, dbName })] },
  );
}

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  a = await instance("platform_instances");
  b = await instance("platform_instances");
  await seedUser(a.platform, "carol", "carol-pass", ["ROLE_USER", MFA_ROLE]);
  await seedUser(a.platform, "tina", "tina-pass");
  await seedUser(a.platform, "mallory", "mallory-pass");
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await double?.close();
});

/** A browser on instance `to` carrying the cookies `from` holds (a load balancer without affinity). */
function sameCookies(from: Browser, to: RunningDemo): Browser {
  const moved = new Browser(to.base);
  for (const [k, v] of from.cookies) moved.cookies.set(k, v);
  return moved;
}

async function restLogin(on: RunningDemo, username: string, password: string): Promise<Response> {
  return fetch(`${on.base}/api/login`, json("POST", { username, password }));
}

async function tokensOf(on: RunningDemo, username: string, password: string) {
  const res = await restLogin(on, username, password);
  expect(res.status).toBe(200);
  return (await res.json()) as { accessToken: string; refreshToken: string };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });

/** Polls `probe` until it returns true or `ms` pass; returns the milliseconds it took, or -1. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await probe()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  return -1;
}

describe("two instances over one MongoDB database", () => {
  it("a session created on A is valid on B, and a logout on B ends it on A", async () => {
    const onA = new Browser(a.base);
    const csrf = await onA.csrfFrom("/login");
    expect(
      (await onA.postForm("/login", { username: "user", password: "password", _csrf: csrf })).status,
    ).toBe(302);
    const onB = sameCookies(onA, b);
    const me = await onB.fetch("/api/me", { headers: { accept: "application/json" } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: "user" });
  });

  it("a bearer token issued by A verifies on B; a refresh on B rotates A's family", async () => {
    const issued = await tokensOf(a, "user", "password");
    const me = await fetch(`${b.base}/api/me`, { headers: bearer(issued.accessToken) });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: "user" });

    const rotated = await fetch(
      `${b.base}/api/token/refresh`,
      json("POST", { refreshToken: issued.refreshToken }),
    );
    expect(rotated.status).toBe(200);
    const next = (await rotated.json()) as { accessToken: string; refreshToken: string };
    expect(next.refreshToken).not.toBe(issued.refreshToken);
    expect((await fetch(`${a.base}/api/me`, { headers: bearer(next.accessToken) })).status).toBe(200);

    // A's old refresh token was rotated on B: presenting it again on A is a reuse, refused.
    const reused = await fetch(
      `${a.base}/api/token/refresh`,
      json("POST", { refreshToken: issued.refreshToken }),
    );
    expect(reused.status).toBe(401);
  });

  it("a token revoked on A is refused on B", async () => {
    const issued = await tokensOf(a, "user", "password");
    expect((await fetch(`${b.base}/api/me`, { headers: bearer(issued.accessToken) })).status).toBe(200);
    const revoked = await fetch(
      `${a.base}/api/token/revoke`,
      json("POST", { refreshToken: issued.refreshToken }, { authorization: `Bearer ${issued.accessToken}` }),
    );
    expect(revoked.status).toBeLessThan(300);
    expect((await fetch(`${b.base}/api/me`, { headers: bearer(issued.accessToken) })).status).toBe(401);
  });

  it("a magic link sent by A signs in on B once; consumed, it is refused on A and on B", async () => {
    const link = async () => {
      const onA = new Browser(a.base);
      const before = outbox(a.outboxFile).length;
      const csrf = await onA.csrfFrom("/login/ott");
      expect((await onA.postForm("/ott/generate", { username: "user", _csrf: csrf })).status).toBe(302);
      const line = await waitForLine(a.outboxFile, before + 1);
      expect(line).toMatchObject({ channel: "email", username: "user" });
      return line.token;
    };
    const submit = async (on: RunningDemo, token: string) => {
      const browser = new Browser(on.base);
      const csrf = await browser.csrfFrom("/login/ott");
      return (await browser.postJson("/login/ott", { token }, { "x-csrf-token": csrf })).status;
    };
    const sentByA = await link();
    expect(await submit(b, sentByA)).toBe(200);
    expect(await submit(a, sentByA)).toBe(401);
    const another = await link();
    expect(await submit(a, another)).toBe(200);
    expect(await submit(b, another)).toBe(401);
  });

  it("a policy changed on A is enforced on B within 5 s (change-counter polling)", async () => {
    const admin = await tokensOf(a, "admin", "admin");
    const user = await tokensOf(b, "user", "password");
    const orders = async () =>
      (await fetch(`${b.base}/api/orders`, { headers: bearer(user.accessToken) })).status;
    expect(await orders()).toBe(200);

    // A DENY placed first (FIRST_APPLICABLE): users may no longer list orders.
    const created = await fetch(
      `${a.base}/admin/api/policies`,
      json(
        "POST",
        {
          name: "Several instances: users may not list orders",
          description: "created on A, enforced on B",
          effect: "DENY",
          priority: 5,
          targets: [{ targetType: "URL", targetIdentifier: "/api/orders", httpMethod: "GET" }],
          rules: [{ name: "users", conditions: [{ expression: "hasRole('USER') and !hasRole('ADMIN')" }] }],
        },
        bearer(admin.accessToken),
      ),
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    try {
      expect(await within(5000, async () => (await orders()) === 403)).toBeGreaterThanOrEqual(0);
    } finally {
      const removed = await fetch(`${a.base}/admin/api/policies/${id}`, {
        method: "DELETE",
        headers: bearer(admin.accessToken),
      });
      expect(removed.status).toBeLessThan(300);
    }
    expect(await within(5000, async () => (await orders()) === 200)).toBeGreaterThanOrEqual(0);
  });

  it("a zero-trust BLOCK set on A stops the subject on B within the change poll interval (2 s)", async () => {
    const admin = await tokensOf(a, "admin", "admin");
    const mallory = await tokensOf(b, "mallory", "mallory-pass");
    expect((await fetch(`${b.base}/api/orders`, { headers: bearer(mallory.accessToken) })).status).toBe(200);
    const set = await fetch(
      `${a.base}/admin/api/zerotrust/actions/username:mallory`,
      json("PUT", { action: "BLOCK", reason: "several-instances test" }, bearer(admin.accessToken)),
    );
    expect(set.status).toBeLessThan(300);
    const blockedOnB = async () =>
      (await fetch(`${b.base}/api/orders`, { headers: bearer(mallory.accessToken) })).status === 403;
    expect(await within(2500, blockedOnB)).toBeGreaterThanOrEqual(0);
  });

  it("a user disabled on A loses their session and token on B before the poll interval is out", async () => {
    await seedUser(a.platform, "dora", "dora-pass");
    const admin = await tokensOf(a, "admin", "admin");
    const dora = await tokensOf(b, "dora", "dora-pass");
    const browser = new Browser(b.base);
    const csrf = await browser.csrfFrom("/login");
    await browser.postForm("/login", { username: "dora", password: "dora-pass", _csrf: csrf });
    const me = async () =>
      (await browser.fetch("/api/me", { headers: { accept: "application/json" } })).status;
    expect(await me()).toBe(200);
    expect((await fetch(`${b.base}/api/me`, { headers: bearer(dora.accessToken) })).status).toBe(200);
    const { id } = (await (
      await fetch(`${b.base}/api/me`, { headers: bearer(dora.accessToken) })
    ).json()) as {
      id: string;
    };
    const disabled = await fetch(
      `${a.base}/admin/api/users/${id}/disable`,
      json("POST", {}, bearer(admin.accessToken)),
    );
    expect(disabled.status).toBe(200);
    expect(await within(2500, async () => (await me()) === 401)).toBeGreaterThanOrEqual(0);
    const tokenRefused = async () =>
      (await fetch(`${b.base}/api/me`, { headers: bearer(dora.accessToken) })).status === 401;
    expect(await within(2500, tokenRefused)).toBeGreaterThanOrEqual(0);
  });

  it("login throttle counts are shared: failures on A and B add up to one lock-out", async () => {
    for (const on of [a, b, a, b, a]) expect((await restLogin(on, "tina", "wrong")).status).toBe(401);
    const blocked = await restLogin(b, "tina", "tina-pass");
    expect(blocked.status).toBe(429);
    expect((await restLogin(a, "tina", "tina-pass")).status).toBe(429);
  });

  it("an MFA flow started on A completes on B", async () => {
    const { result: started, code } = await a.codeAfter("carol", () => restLogin(a, "carol", "carol-pass"));
    const mfa = (await started.json()) as ApiMfaRequired;
    expect(started.status).toBe(200);
    expect(mfa).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    const verified = await fetch(
      `${b.base}${mfa.endpoints.verifyOtt}`,
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    const tokens = (await verified.json()) as { accessToken?: string };
    expect(verified.status, JSON.stringify(tokens)).toBe(200);
    const me = await fetch(`${a.base}/api/me`, { headers: bearer(tokens.accessToken!) });
    expect(await me.json()).toMatchObject({ username: "carol", method: "mfa" });
  });

  it("MFA lockouts are shared: wrong codes on A and B count together", async () => {
    const { result: started } = await a.codeAfter("carol", () => restLogin(a, "carol", "carol-pass"));
    const mfa = (await started.json()) as ApiMfaRequired;
    const answers: number[] = [];
    for (const on of [a, b, a, b, a]) {
      const res = await fetch(
        `${on.base}${mfa.endpoints.verifyOtt}`,
        json("POST", { token: "000000" }, bindingHeaders(mfa)),
      );
      answers.push(res.status);
    }
    expect(answers).toEqual([401, 401, 401, 401, 423]);
  });
});

describe("prompt bundle convergence across instances", () => {
  it("each instance's heartbeat, written at its start, is in the other's convergence report", async () => {
    const { accessToken } = await tokensOf(a, "admin", "admin");
    const res = await fetch(`${b.base}/platform/admin/api/prompt-quality/convergence`, {
      headers: bearer(accessToken),
    });
    expect(res.status).toBe(200);
    const report = (await res.json()) as { instances: { instanceId: string; verdict: string }[] };
    // Two processes' names (generated per platform), both on the configuration selector.
    expect(new Set(report.instances.map((i) => i.instanceId)).size).toBe(2);
    expect(report.instances.map((i) => i.verdict)).toEqual(["NOT_FOLLOWING", "NOT_FOLLOWING"]);
  });
});
