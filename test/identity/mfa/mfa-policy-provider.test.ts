import { MfaDecision, type MfaPolicyContext, MfaPolicyProvider } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  demoSecurity,
  type IdentityTestServer,
  JSON_ACCEPT,
  me,
  newOutboxFile,
  primaryForm,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

describe("a host MfaPolicyProvider replaces the default", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  let mode: "challenge" | "block" | "escalate" | "throw" = "challenge";
  const seen: MfaPolicyContext[] = [];
  const provider: MfaPolicyProvider = {
    async evaluateInitialMfaRequirement(ctx) {
      seen.push(ctx);
      if (ctx.user.username !== "user") return MfaDecision.noMfaRequired("host: only user is checked");
      if (mode === "throw") throw new Error("risk engine down");
      if (mode === "block") return MfaDecision.blocked("host: blocked");
      if (mode === "escalate") return MfaDecision.escalated("host: review");
      return MfaDecision.challenged("host: user must do MFA");
    },
  };
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      security: demoSecurity,
      register: (c) => c.registerInstance(MfaPolicyProvider, provider),
    });
  });
  afterAll(() => s.close());

  it("challenges user (whom the default never would) and lets admin through", async () => {
    const b = new Browser(s.url);
    const { result, code } = await codeAfter(file, "user", () => primaryForm(b, "user", "password", true));
    expect(await result.json()).toMatchObject({ mfaRequired: true, status: "MFA_REQUIRED" });
    const last = seen.at(-1)!;
    expect(last.user).toMatchObject({ username: "user", authorities: ["ROLE_USER"] });
    expect(last.flow).toMatchObject({ typeName: "mfa", factors: ["OTT"], requiredFactors: 1 });
    expect((await verify(b, await csrfOfSession(b), code)).status).toBe(200);
    expect((await me(b)).body).toMatchObject({ username: "user", method: "mfa" });

    const admin = new Browser(s.url);
    const res = await primaryForm(admin, "admin", "admin");
    expect(res.headers.get("location")).toBe("/");
    expect((await me(admin)).body).toMatchObject({ username: "admin", method: "form" });
  });

  it("the policy sees the X-Device-Id header as a hint only, never as the device id", async () => {
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/login");
    await codeAfter(file, "user", () =>
      b.postForm(
        "/login",
        { username: "user", password: "password", _csrf: csrf },
        { ...JSON_ACCEPT, "x-device-id": "dev-123" },
      ),
    );
    expect(seen.at(-1)!.request).toMatchObject({
      deviceId: undefined,
      deviceHint: "dev-123",
      method: "POST",
      path: "/login",
    });
  });

  it.each(["block", "throw"] as const)("%s: 403 AUTHENTICATION_BLOCKED on the MFA primary", async (m) => {
    mode = m;
    const res = await primaryForm(new Browser(s.url), "user", "password", true);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ success: false, code: "AUTHENTICATION_BLOCKED" });
  });

  it("block: single-auth chains refuse the sign-in too (no token)", async () => {
    mode = "block";
    const res = await new Browser(s.url).postJson("/api/login", { username: "user", password: "password" });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(403);
    expect(body).toMatchObject({ code: "AUTHENTICATION_BLOCKED" });
    expect(body).not.toHaveProperty("accessToken");
  });
});
