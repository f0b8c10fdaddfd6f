import {
  MfaDecision,
  AuditSink,
  type MfaPolicyProvider,
  MfaPolicyProvider as MfaPolicyProviderToken,
} from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  startDemo,
} from "../../support/demo-server.js";
import {
  Browser,
  type IdentityTestServer,
  me,
  newOutboxFile,
  primaryForm,
  startAdminMfa,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

// Attack F1 (after issue #12): with the adaptive policy, whoever knows an administrator's password
// raised the score on purpose (wrong passwords first) to be ESCALATED instead of challenged; another
// administrator's approval then signed them in with the password alone. A holder of
// platform.auth.mfa.requiredAuthorities always proves a second factor: high risk gets the challenge.

/** The `amr` claim of an access token. */
function amrOf(accessToken: string): string[] {
  const payload = JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as {
    amr?: string[];
  };
  return payload.amr ?? [];
}

async function attack(
  demo: RunningDemo,
  wrong: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; code: string | undefined }> {
  const url = (path: string) => `${demo.base}${path}`;
  for (let i = 0; i < wrong; i++) {
    const res = await fetch(
      url("/api/login"),
      json("POST", { username: "admin2", password: "nope" }, headers),
    );
    expect(res.status).toBe(401);
  }
  let code: string | undefined;
  const login = fetch(url("/api/login"), json("POST", { username: "admin2", password: "admin2" }, headers));
  const res = await Promise.race([
    demo
      .codeAfter("admin2", () => login)
      .then((r) => {
        code = r.code;
        return r.result;
      }),
    login.then(async (r) => (r.status === 202 ? r : new Promise<Response>(() => {}))),
  ]);
  return { status: res.status, body: (await res.clone().json()) as Record<string, unknown>, code };
}

/** admin signs in (with a code) and returns its bearer header. */
async function adminBearer(demo: RunningDemo): Promise<Record<string, string>> {
  const { result, code } = await demo.codeAfter("admin", () =>
    fetch(`${demo.base}/api/login`, json("POST", { username: "admin", password: "admin" })),
  );
  const mfa = (await result.json()) as ApiMfaRequired;
  const done = await fetch(
    `${demo.base}${mfa.endpoints.verifyOtt}`,
    json("POST", { token: code }, bindingHeaders(mfa)),
  );
  return { authorization: `Bearer ${((await done.json()) as { accessToken: string }).accessToken}` };
}

async function expectChallengedThenOtp(demo: RunningDemo, r: Awaited<ReturnType<typeof attack>>) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
  expect(r.body).not.toHaveProperty("escalated");
  expect(r.code).toBeDefined();
  // Nothing waits for review: the other administrator has nothing to approve.
  const queue = await fetch(`${demo.base}/admin/api/mfa/escalations`, { headers: await adminBearer(demo) });
  expect(((await queue.json()) as { username: string }[]).map((e) => e.username)).not.toContain("admin2");
  const mfa = r.body as unknown as ApiMfaRequired;
  const done = await fetch(
    `${demo.base}${mfa.endpoints.verifyOtt}`,
    json("POST", { token: r.code }, bindingHeaders(mfa)),
  );
  const tokens = (await done.json()) as { accessToken: string };
  expect(done.status).toBe(200);
  expect(amrOf(tokens.accessToken)).toContain("otp");
}

describe("adaptive MFA: an administrator is challenged, never escalated instead (README thresholds)", () => {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await startDemo({
      PLATFORM_AUTH_MFA_POLICY: "adaptive",
      SECURITY_ZEROTRUST_THRESHOLDS_REQUIRED: "0.55",
      SECURITY_ZEROTRUST_THRESHOLDS_STRICT: "0.55",
    });
  });
  afterAll(() => demo.close());

  it("the attacker's script: wrong passwords, then admin2's password → a code, not 202; tokens carry otp", async () => {
    const r = await attack(demo, 3);
    await expectChallengedThenOtp(demo, r);
  });

  it("a plain user is still escalated (unchanged)", async () => {
    expect(
      (await fetch(`${demo.base}/api/login`, json("POST", { username: "user", password: "x" }))).status,
    ).toBe(401);
    const held = await fetch(
      `${demo.base}/api/login`,
      json("POST", { username: "user", password: "password" }),
    );
    expect(held.status).toBe(202);
    expect(await held.json()).toMatchObject({ escalated: true, status: "PENDING" });
  });
});

describe("adaptive MFA, default thresholds: new device + new network + 4 failures (0.92 >= strict 0.9)", () => {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await startDemo(
      { PLATFORM_AUTH_MFA_POLICY: "adaptive" },
      { "platform.http.trusted-proxies": "loopback" },
    );
  });
  afterAll(() => demo.close());

  it("admin2 is challenged and proves the code; nothing is escalated", async () => {
    // admin2's real first sign-in, from its office network: history now knows it.
    const office = { "x-forwarded-for": "198.51.100.10" };
    const first = await attack(demo, 0, office);
    await expectChallengedThenOtp(demo, first);
    // The attacker, from elsewhere, with 4 wrong passwords first.
    const r = await attack(demo, 4, { "x-forwarded-for": "203.0.113.66" });
    expect(JSON.stringify(r.body)).not.toContain("escalated");
    await expectChallengedThenOtp(demo, r);
  });
});

describe("any policy: an ESCALATED floor-role holder is challenged instead, on the session (browser) path too", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  const escalateAll: MfaPolicyProvider = {
    evaluateInitialMfaRequirement: async () => MfaDecision.escalated("host policy: review everyone"),
  };
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      register: (c) => c.registerInstance(MfaPolicyProviderToken, escalateAll),
    });
  });
  afterAll(() => s.close());

  it("admin's form sign-in gets a code and completes with otp; its audit names the floor", async () => {
    const { b, body, code, csrf } = await startAdminMfa(s, file);
    expect(body).not.toHaveProperty("escalated");
    const done = await verify(b, csrf, code);
    expect(done.status).toBe(200);
    expect((await me(b)).body).toMatchObject({ username: "admin" });
    const audit = s.platform.resolve(AuditSink) as unknown as {
      events(): { type: string; data?: unknown }[];
    };
    expect(audit.events().find((e) => e.type === "auth.mfa.escalation-floor")?.data).toMatchObject({
      role: "ROLE_ADMIN",
    });
  });

  it("a browser without the floor role is still held for review (202)", async () => {
    const res = await primaryForm(new Browser(s.url), "user", "password", true);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ escalated: true });
  });
});
