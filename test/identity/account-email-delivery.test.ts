// Issue 33: an account's e-mail address (admin API, repository) and real mail (SMTP to a server
// started here): MFA codes, magic links and reset links go to the address; a refused or unreachable
// server changes no answer, and is audited and logged without the token.
import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform } from "@keyward/cli";
import { type Platform, ServerAddress } from "@keyward/core";
import { AuditSink, Logger, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CapturingLogger } from "../../packages/adapters-http/src/test-support.js";
import {
  startTestSmtpServer,
  type TestSmtpServer,
} from "../../packages/adapters-http/src/mail/smtp-test-server.fixture.js";
import type { InMemoryAuditSink } from "../../packages/core/src/kernel/in-memory-audit-sink.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";
import { Browser } from "./identity-test-server.js";

let base = "";
let platform: Platform;
let smtp: TestSmtpServer;
let adminToken = "";
const logger = new CapturingLogger();
let close: () => Promise<void>;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  const demo = await buildDemoPlatform(
    {
      properties: {
        ...LOW_COST_SCRYPT,
        "platform.auth.mfa.requiredAuthorities": "ROLE_ADMIN",
        "platform.auth.ott.delivery": "smtp",
        "platform.auth.ott.max-per-user": 50,
        "platform.mail.smtp.host": "127.0.0.1",
        "platform.mail.smtp.port": smtp.port,
        "platform.mail.smtp.security": "none",
        "platform.mail.smtp.from": "no-reply@keyward.test",
        "platform.mail.smtp.connect-timeout": "PT1S",
        "platform.mail.smtp.send-timeout": "PT2S",
      },
      overrides: (o) => o.override(Logger, { useValue: logger }),
    },
    {},
  );
  platform = demo.platform;
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  platform.resolve(ServerAddress).port = server.port;
  base = `http://localhost:${server.port}`;
  // The host's repository path: an address set there is trusted as given.
  const users = platform.resolve(UserRepository);
  const admin = (await users.findByUsername("admin"))!;
  await users.update({ ...admin, email: "Admin@Example.com" });
  close = async () => {
    await server.close(true);
    await platform.stop();
    await smtp.close();
  };
});
afterAll(() => close());

async function api(token: string | undefined, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      accept: "application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

function auditTypes(): { type: string; principal?: string | undefined; data?: Record<string, unknown> }[] {
  return (platform.resolve(AuditSink) as InMemoryAuditSink).events();
}

async function requestLink(username: string): Promise<{ status: number; location: string | null }> {
  const b = new Browser(base);
  const csrf = await b.csrfFrom("/login/ott");
  const res = await b.postForm("/ott/generate", { username, _csrf: csrf });
  return { status: res.status, location: res.headers.get("location") };
}

async function waitForAudit(type: string, principal: string, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (auditTypes().filter((e) => e.type === type && e.principal === principal).length >= count) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ${type} for ${principal}`);
}

describe("the account's e-mail address and SMTP delivery", () => {
  it("mails the administrator's MFA code to their address; the code signs in", async () => {
    const first = await api(undefined, "POST", "/api/login", { username: "admin", password: "admin" });
    expect(first.body).toMatchObject({ mfaRequired: true });
    const [mail] = await smtp.waitFor(1);
    // Stored as the host gave it; nodemailer lower-cases the domain (domains are case-insensitive).
    expect(mail!.to).toEqual(["Admin@example.com"]);
    expect(mail!.raw).toMatch(/^Subject: Your verification code\r$/m);
    const code = /Your verification code is (\d+)/.exec(mail!.decoded)![1]!;
    const verified = await fetch(new URL(first.body.endpoints.verifyOtt, base), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-mfa-session-id": first.body.mfaSessionId,
        "x-mfa-binding": first.body.mfaBinding,
      },
      body: JSON.stringify({ token: code }),
    });
    expect(verified.status).toBe(200);
    adminToken = ((await verified.json()) as { accessToken: string }).accessToken;
  });

  it("creates a user with an address, sets, changes and clears it: ADMIN only, unique whatever the case", async () => {
    const created = await api(adminToken, "POST", "/admin/api/users", {
      username: "nia",
      email: "  Nia@Example.ORG ",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: "nia", email: "Nia@example.org", hasPassword: false });
    const id = created.body.id as string;
    const taken = await api(adminToken, "POST", "/admin/api/users", {
      username: "nia2",
      email: "nia@EXAMPLE.org",
    });
    expect([taken.status, taken.body.code]).toEqual([409, "CONFLICT"]);
    const cleared = await api(adminToken, "PUT", `/admin/api/users/${id}/email`, { email: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty("email");
    const set = await api(adminToken, "PUT", `/admin/api/users/${id}/email`, { email: "nia@example.org" });
    expect([set.status, set.body.email]).toEqual([200, "nia@example.org"]);
    expect((await api(adminToken, "GET", `/admin/api/users/${id}`)).body.email).toBe("nia@example.org");
    const admin = (await platform.resolve(UserRepository).findByUsername("admin"))!;
    const clash = await api(adminToken, "PUT", `/admin/api/users/${id}/email`, {
      email: "admin@example.com",
    });
    expect([clash.status, admin.email]).toEqual([409, "Admin@Example.com"]);
    // An address that is another account's username: that account is mailed there, so refused too.
    await api(adminToken, "POST", "/admin/api/users", { username: "ops@example.net" });
    for (const [method, path, body] of [
      ["PUT", `/admin/api/users/${id}/email`, { email: "OPS@example.net" }],
      ["POST", "/admin/api/users", { username: "nia3", email: "ops@example.net" }],
    ] as const) {
      const shared = await api(adminToken, method, path, body);
      expect([shared.status, shared.body.code]).toEqual([409, "CONFLICT"]);
    }
    const events = auditTypes().filter((e) => e.type.startsWith("user.email-"));
    expect(events.map((e) => [e.type, e.data?.emailDomain])).toEqual([
      ["user.email-cleared", undefined],
      ["user.email-set", "example.org"],
    ]);
    expect(JSON.stringify(auditTypes())).not.toContain("nia@example.org");
  });

  it("refuses malformed, missing, oversized and hostile input with 400, and other callers", async () => {
    const nia = (await platform.resolve(UserRepository).findByUsername("nia"))!;
    const path = `/admin/api/users/${nia.id}/email`;
    for (const body of [
      "{not json",
      {},
      { email: 42 },
      { email: "nia@example.org", extra: 1 },
      { email: `${"a".repeat(300)}@example.org` },
      { email: "a".repeat(100_000) },
      { email: "nia@example.org\r\nBcc: eve@evil.test" },
      { email: "nia@example.org,eve@evil.test" },
      { email: "Eve <eve@evil.test>" },
      { email: "" },
    ]) {
      const answer = await api(adminToken, "PUT", path, body);
      const code = typeof body === "string" ? "MALFORMED_JSON" : "VALIDATION_FAILED";
      expect([answer.status, answer.body?.code], JSON.stringify(body).slice(0, 60)).toEqual([400, code]);
      expect(answer.text).not.toContain("evil");
    }
    const badCreate = await api(adminToken, "POST", "/admin/api/users", { username: "x9", email: "x9@@x" });
    expect(badCreate.status).toBe(400);
    expect((await api(adminToken, "GET", path)).status).toBe(405);
    expect(
      (await api(adminToken, "PUT", "/admin/api/users/no-such-user/email", { email: null })).status,
    ).toBe(404);
    // Anonymous: refused before the API runs (CSRF or authentication, whichever filter comes first).
    expect([401, 403]).toContain((await api(undefined, "PUT", path, { email: null })).status);
    const user = await api(undefined, "POST", "/api/login", { username: "user", password: "password" });
    expect((await api(user.body.accessToken, "PUT", path, { email: null })).status).toBe(403);
    expect((await platform.resolve(UserRepository).findById(nia.id))?.email).toBe("nia@example.org");
  });

  it("mails a magic link and a reset link to the address", async () => {
    const before = smtp.received.length;
    expect(await requestLink("NIA")).toEqual({ status: 302, location: "/login/ott?sent" });
    const nia = (await platform.resolve(UserRepository).findByUsername("nia"))!;
    const reset = await api(adminToken, "POST", `/admin/api/users/${nia.id}/reset-password`, {
      sendLink: true,
    });
    expect(reset.status).toBe(200);
    const [link, resetMail] = (await smtp.waitFor(before + 2)).slice(before);
    expect(link!.to).toEqual(["nia@example.org"]);
    expect(link!.decoded).toMatch(new RegExp(`<a href="${base}/login/ott\\?token=[^"]+">Sign in</a>`));
    expect(resetMail!.to).toEqual(["nia@example.org"]);
    expect(resetMail!.decoded).toContain(`${base}/reset-password?token=`);
    // The administrator moves the account to another address: the links mailed to the old one die.
    const token = decodeURIComponent(
      /reset-password\?token=([A-Za-z0-9_%.-]+)/.exec(resetMail!.decoded)![1]!,
    );
    const moved = await api(adminToken, "PUT", `/admin/api/users/${nia.id}/email`, {
      email: "nia.moved@example.org",
    });
    expect(moved.status).toBe(200);
    const b = new Browser(base);
    const page = await (await b.fetch(`/reset-password?token=${encodeURIComponent(token)}`)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
    expect(
      (await b.postForm("/reset-password", { token, password: "nia-new-password-1", _csrf: csrf })).status,
    ).toBe(400);
    await api(adminToken, "PUT", `/admin/api/users/${nia.id}/email`, { email: "nia@example.org" });
  });

  it("answers a sign-in the same when the server refuses the address, or the account has none; audited, logged without the token", async () => {
    const delivered = smtp.received.length;
    const sent = await requestLink("nia");
    await smtp.waitFor(delivered + 1);
    smtp.refuse.add("nia@example.org");
    const received = smtp.received.length;
    expect(await requestLink("nia")).toEqual(sent);
    expect(await requestLink("user")).toEqual(sent);
    expect(await requestLink("nobody-at-all")).toEqual(sent);
    await waitForAudit("auth.ott.delivery-failed", "nia", 1);
    await waitForAudit("auth.ott.delivery-failed", "user", 1);
    expect(smtp.received.length).toBe(received);
    const failures = logger.entries.filter((e) => e.message === "One-time token delivery failed");
    expect(failures.map((e) => e.fields.reason)).toEqual(["DELIVERY_FAILED", "DELIVERY_FAILED"]);
    const lines = logger.entries.map((e) => e.line).join("\n");
    expect(lines).toContain("EENVELOPE 550");
    expect(lines).not.toMatch(/token=|nia@example\.org/);
    // An administrator's reset link waits for its delivery: 503 DELIVERY_FAILED, audited as failed.
    const niaId = (await platform.resolve(UserRepository).findByUsername("nia"))!.id;
    const reset = await api(adminToken, "POST", `/admin/api/users/${niaId}/reset-password`, {
      sendLink: true,
    });
    expect(reset.status).toBe(503);
    expect(reset.body).toMatchObject({ code: "DELIVERY_FAILED" });
    await waitForAudit("user.password-reset-link-failed", "admin", 1);
    smtp.refuse.clear();
  });

  it("answers the same when the SMTP server is gone; the MFA code's failure is audited too", async () => {
    const delivered = smtp.received.length;
    const sent = await requestLink("nia");
    await smtp.waitFor(delivered + 1);
    await smtp.close();
    expect(await requestLink("nia")).toEqual(sent);
    await waitForAudit("auth.ott.delivery-failed", "nia", 2);
    expect(auditTypes().filter((e) => e.type === "auth.ott.delivery-failed")).toHaveLength(3);
    const login = await api(undefined, "POST", "/api/login", { username: "admin", password: "admin" });
    expect(login.body).toMatchObject({ mfaRequired: true });
    await waitForAudit("auth.mfa.delivery-failed", "admin", 1);
    expect(logger.entries.map((e) => e.line).join("\n")).not.toMatch(/token=/);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('keyward_delivery_failures_total{kind="ott"} 3');
    expect(metrics).toContain('keyward_delivery_failures_total{kind="mfa"} 1');
  });
});
