import {
  MfaDecision,
  type MfaPolicyProvider,
  MfaPolicyProvider as MfaPolicyProviderToken,
} from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  newOutboxFile,
  primaryForm,
  startMfaServer,
} from "./mfa-test-support.js";

/** Escalates `user`'s sign-ins; everyone else passes (admin reviews). */
const reviewUser: MfaPolicyProvider = {
  evaluateInitialMfaRequirement: async (ctx) =>
    ctx.user.username === "user"
      ? MfaDecision.escalated("unusual sign-in: review")
      : MfaDecision.noMfaRequired(),
};

interface Pending {
  id: string;
  username: string;
}

describe("ESCALATED: the login waits for an administrator's review", () => {
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: newOutboxFile(),
      security: demoSecurity,
      register: (c) => c.registerInstance(MfaPolicyProviderToken, reviewUser),
    });
  });
  afterAll(() => s.close());

  async function adminSession(): Promise<{ b: Browser; csrf: string }> {
    const b = new Browser(s.url);
    expect((await primaryForm(b, "admin", "admin")).headers.get("location")).toBe("/");
    const { token } = (await (await b.fetch("/csrf")).json()) as { token: string };
    return { b, csrf: token };
  }

  async function escalatedUser(): Promise<Browser> {
    const b = new Browser(s.url);
    const res = await primaryForm(b, "user", "password", true);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({
      escalated: true,
      status: "PENDING",
      statusUrl: "/api/mfa/escalation",
    });
    return b;
  }

  async function pendingId(admin: Browser): Promise<string> {
    const list = (await (
      await admin.fetch("/admin/api/mfa/escalations", { headers: { accept: "application/json" } })
    ).json()) as Pending[];
    const mine = list.filter((e) => e.username === "user");
    expect(mine.length).toBeGreaterThan(0);
    return mine.at(-1)!.id;
  }

  it("approve: the user's next poll signs in, once", async () => {
    const user = await escalatedUser();
    const poll = await user.fetch("/api/mfa/escalation", { headers: { accept: "application/json" } });
    expect(poll.status).toBe(200);
    expect(await poll.json()).toMatchObject({ status: "PENDING" });
    expect((await user.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
    const admin = await adminSession();
    const id = await pendingId(admin.b);
    const approved = await admin.b.postJson(
      `/admin/api/mfa/escalations/${id}/approve`,
      {},
      { "x-csrf-token": admin.csrf },
    );
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ status: "APPROVED", decidedBy: "admin" });
    const done = await user.fetch("/api/mfa/escalation", { headers: { accept: "application/json" } });
    expect(done.status).toBe(200);
    expect(await (await user.fetch("/api/me")).json()).toMatchObject({ username: "user" });
  });

  it("reject: the poll answers 403 and nobody is signed in", async () => {
    const user = await escalatedUser();
    const admin = await adminSession();
    const id = await pendingId(admin.b);
    expect(
      (await admin.b.postJson(`/admin/api/mfa/escalations/${id}/reject`, {}, { "x-csrf-token": admin.csrf }))
        .status,
    ).toBe(200);
    const poll = await user.fetch("/api/mfa/escalation", { headers: { accept: "application/json" } });
    expect(poll.status).toBe(403);
    expect(await poll.json()).toMatchObject({ code: "AUTHENTICATION_BLOCKED", status: "REJECTED" });
    expect((await user.fetch("/api/me", { headers: { accept: "application/json" } })).status).toBe(401);
  });

  it("a non-admin gets 403 on the admin API; anonymous 401", async () => {
    await escalatedUser();
    const anonymous = await new Browser(s.url).fetch("/admin/api/mfa/escalations", {
      headers: { accept: "application/json" },
    });
    expect(anonymous.status).toBe(401);
    const policyFree = await startMfaServer({
      outbox: newOutboxFile(),
      security: demoSecurity,
      properties: { "platform.auth.mfa.requiredAuthorities": "" },
    });
    try {
      const plain = new Browser(policyFree.url);
      await primaryForm(plain, "user", "password");
      const res = await plain.fetch("/admin/api/mfa/escalations", {
        headers: { accept: "application/json" },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: "ACCESS_DENIED" });
    } finally {
      await policyFree.close();
    }
  });
});
