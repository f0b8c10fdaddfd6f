import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import type { Platform, PlatformPlugin } from "@keyward/core";
import {
  AuditLog,
  AuditSink,
  Clock,
  PasswordHasher,
  SessionStore,
  UserRepository,
} from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySessionStore } from "../../packages/core/src/identity/session/in-memory-session-store.js";
import { InMemoryUserRepository } from "../../packages/core/src/identity/users/in-memory-user-repository.js";
import { InMemoryAuditSink } from "../../packages/core/src/kernel/in-memory-audit-sink.js";
import { Browser } from "../identity/identity-test-server.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

/**
 * A host plugin listed after identity (what an adapter package is) that replaces three defaults with
 * stores it keeps references to, so the test can look inside the ones the platform really used.
 */
function hostStores() {
  const clock = new SystemClock();
  const sessions = new InMemorySessionStore({ clock });
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock });
  const audit = new InMemoryAuditSink(1_000, clock);
  const plugin: PlatformPlugin = {
    id: "host-stores",
    register(ctx) {
      ctx.override(SessionStore, { useValue: sessions });
      ctx.override(UserRepository, { useValue: users });
      ctx.override(AuditSink, { useValue: audit });
      ctx.override(AuditLog, { useValue: audit });
    },
  };
  return { plugin, sessions, users, audit };
}

const stores = hostStores();
let demo: RunningDemo;
let base = "";
let platform: Platform;

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS, { plugins: [stores.plugin] });
  ({ base, platform } = demo);
  // Created straight in the host's repository: only a platform that reads it can sign dave in.
  await stores.users.create({
    username: "dave",
    passwordHash: await platform.resolve(PasswordHasher).hash("dave-pass"),
    authorities: ["ROLE_USER"],
  });
});
afterAll(() => demo.close());

describe("a plugin listed after identity replaces the SessionStore, the UserRepository and the AuditSink", () => {
  it("the platform resolves the plugin's instances, not the defaults", () => {
    expect(platform.resolve(SessionStore)).toBe(stores.sessions);
    expect(platform.resolve(UserRepository)).toBe(stores.users);
    expect(platform.resolve(AuditSink)).toBe(stores.audit);
    expect(platform.resolve(AuditLog)).toBe(stores.audit);
    expect(platform.resolve(Clock)).toBeInstanceOf(SystemClock);
  });

  it("sign-in reads the plugin's users and writes the plugin's sessions and audit trail; /api/me answers from them", async () => {
    expect(await stores.users.findByUsername("admin")).toBeDefined(); // the demo seeded into it
    const sessionsBefore = stores.sessions.size;
    const b = new Browser(base);
    const csrf = await b.csrfFrom("/login");
    const res = await b.postForm("/login", { username: "dave", password: "dave-pass", _csrf: csrf });
    expect(res.status).toBe(302);
    expect(stores.sessions.size).toBeGreaterThan(sessionsBefore);
    expect(stores.audit.events()).toContainEqual(
      expect.objectContaining({ type: "auth.login.success", principal: "dave" }),
    );
    const me = await b.fetch("/api/me");
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: "dave" });
  });

  it("/admin/api/audit reads the plugin's AuditLog", async () => {
    stores.audit.record({ type: "host.marker", principal: "host", outcome: "info" });
    const login = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin" }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const res = await fetch(`${base}/admin/api/audit?type=host.marker`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([expect.objectContaining({ type: "host.marker", principal: "host" })]);
  });
});
