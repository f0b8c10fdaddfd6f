import { currentAuthentication } from "@keyward/core";
import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  demoSecurity,
  type IdentityTestServer,
  newOutboxFile,
  outbox,
  primaryForm,
  startMfaServer,
} from "./mfa-test-support.js";

/** The claims of a JWT (no verification: the server already verified it). */
function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<
    string,
    unknown
  >;
}

interface StepUpChallenge {
  code: string;
  mfaUrl: string;
  mfaSessionId: string;
  currentState: string;
  maxAgeSeconds: number;
}

describe("step-up: a resource that needs a recent second factor", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  const clock = new ManualClock(Date.UTC(2026, 10, 25, 12));
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      security: demoSecurity,
      // Nobody needs MFA to sign in here: step-up is what asks for the second factor.
      properties: { "platform.auth.mfa.requiredAuthorities": "" },
      register: (c) => c.registerInstance(Clock, clock),
      routes: (routes) => {
        const handler = (ex: Parameters<typeof currentAuthentication>[0]) => ({
          sensitive: true,
          factors: currentAuthentication(ex)?.factors.map((f) => f.type),
        });
        routes.add({ method: "GET", path: "/account/security", handler });
        routes.add({ method: "GET", path: "/api/account/security", handler });
      },
    });
  });
  afterAll(() => s.close());

  it("a session user gets 401 MFA_CHALLENGE_REQUIRED, completes a code, and the same session is upgraded", async () => {
    const b = new Browser(s.url);
    await primaryForm(b, "user", "password");
    const before = (await (await b.fetch("/api/me")).json()) as { authenticatedAt: string };
    const { result, code } = await codeAfter(file, "user", () =>
      b.fetch("/account/security", { headers: { accept: "application/json" } }),
    );
    expect(result.status).toBe(401);
    const challenge = (await result.json()) as StepUpChallenge;
    expect(challenge).toMatchObject({
      code: "MFA_CHALLENGE_REQUIRED",
      mfaUrl: "/mfa/challenge/ott",
      currentState: "OTT_CHALLENGE",
      maxAgeSeconds: 300,
    });
    const { token } = (await (await b.fetch("/csrf")).json()) as { token: string };
    const done = await b.postJson("/login/mfa-ott", { token: code }, { "x-csrf-token": token });
    expect(done.status).toBe(200);
    const doneBody = (await done.json()) as { csrfToken: string };
    expect(doneBody).toMatchObject({ success: true, stepUp: true });
    // The answer carries the session's current CSRF token, for a page that retries a POST.
    const { token: current } = (await (await b.fetch("/csrf")).json()) as { token: string };
    expect(doneBody.csrfToken).toBe(current);
    const ok = await b.fetch("/account/security", { headers: { accept: "application/json" } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ sensitive: true, factors: ["pwd", "otp"] });
    const after = (await (await b.fetch("/api/me")).json()) as { authenticatedAt: string; method: string };
    expect(after.authenticatedAt).toBe(before.authenticatedAt);
    // Upgraded, not signed in afresh: the sign-in time and method stay.
    expect(after.method).toBe("form");
    clock.advance(6 * 60_000);
    const again = await codeAfter(file, "user", () =>
      b.fetch("/account/security", { headers: { accept: "application/json" } }),
    );
    expect(again.result.status).toBe(401);
    const renewed = await b.postJson("/login/mfa-ott", { token: again.code }, { "x-csrf-token": current });
    expect(renewed.status).toBe(200);
    // A second step-up refreshes the otp proof instead of adding another entry.
    const fresh = await b.fetch("/account/security", { headers: { accept: "application/json" } });
    expect(await fresh.json()).toEqual({ sensitive: true, factors: ["pwd", "otp"] });
  });

  it("concurrent requests of one sign-in share one challenge: one MFA session, one code, one binding cookie", async () => {
    const b = new Browser(s.url);
    await primaryForm(b, "user", "password");
    const before = outbox(file).length;
    const answers = await Promise.all(
      [0, 1, 2].map(() => b.fetch("/account/security", { headers: { accept: "application/json" } })),
    );
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as StepUpChallenge[];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(new Set(bodies.map((x) => x.mfaSessionId)).size).toBe(1);
    const cookies = answers.map((r) => r.headers.getSetCookie().find((c) => c.startsWith("PLATFORM_MFA=")));
    expect(new Set(cookies).size).toBe(1);
    await expect.poll(() => outbox(file).length).toBe(before + 1);
    const code = outbox(file)[before]!.token;
    const { token } = (await (await b.fetch("/csrf")).json()) as { token: string };
    expect((await b.postJson("/login/mfa-ott", { token: code }, { "x-csrf-token": token })).status).toBe(200);
    expect((await b.fetch("/account/security", { headers: { accept: "application/json" } })).status).toBe(
      200,
    );
    // A later step-up (another window) is a new challenge.
    clock.advance(6 * 60_000);
    const again = await codeAfter(file, "user", () =>
      b.fetch("/account/security", { headers: { accept: "application/json" } }),
    );
    expect(((await again.result.json()) as StepUpChallenge).mfaSessionId).not.toBe(bodies[0]!.mfaSessionId);
  });

  it("a browser is sent to the challenge page, and back to the page it asked for once the code is in", async () => {
    const b = new Browser(s.url);
    await primaryForm(b, "user", "password");
    const { result, code } = await codeAfter(file, "user", () => b.navigate("/account/security?tab=2"));
    expect(result.status).toBe(302);
    expect(result.headers.get("location")).toBe("/mfa/challenge/ott");
    const { token } = (await (await b.fetch("/csrf")).json()) as { token: string };
    const done = await b.postForm("/login/mfa-ott", { token: code, _csrf: token });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/account/security?tab=2");
    // Taken once: a later step-up without a page of its own goes home.
    clock.advance(6 * 60_000);
    const again = await codeAfter(file, "user", () =>
      b.fetch("/account/security", { headers: { accept: "application/json" } }),
    );
    const { token: csrf } = (await (await b.fetch("/csrf")).json()) as { token: string };
    const home = await b.postJson("/login/mfa-ott", { token: again.code }, { "x-csrf-token": csrf });
    expect(await home.json()).toMatchObject({ stepUp: true, redirectUrl: "/" });
  });

  it("keeps the page to come back to for the user whose step-up it is: another user signing in there never lands on it", async () => {
    const b = new Browser(s.url);
    await primaryForm(b, "user", "password");
    await codeAfter(file, "user", () => b.navigate("/account/security?from=user"));
    // Abandoned: admin signs in in the same browser, then steps up.
    const login = await primaryForm(b, "admin", "admin");
    expect(login.headers.get("location")).toBe("/");
    const again = await codeAfter(file, "admin", () =>
      b.fetch("/account/security", { headers: { accept: "application/json" } }),
    );
    const { token: csrf } = (await (await b.fetch("/csrf")).json()) as { token: string };
    const done = await b.postJson("/login/mfa-ott", { token: again.code }, { "x-csrf-token": csrf });
    expect(await done.json()).toMatchObject({ stepUp: true, redirectUrl: "/" });
  });

  it("a bearer client without an Accept header gets the 401, never a redirect to a page", async () => {
    const b = new Browser(s.url);
    const login = (await (
      await b.postJson("/api/login", { username: "user", password: "password" })
    ).json()) as { accessToken: string };
    const { result } = await codeAfter(file, "user", () =>
      b.fetch("/api/account/security", { headers: { authorization: `Bearer ${login.accessToken}` } }),
    );
    expect(result.status).toBe(401);
    expect(result.headers.get("location")).toBeNull();
    expect(result.headers.get("www-authenticate")).toBe('Bearer error="insufficient_user_authentication"');
  });

  it("a bearer client gets WWW-Authenticate insufficient_user_authentication, then a new token with auth_time kept and otp in amr", async () => {
    const b = new Browser(s.url);
    const login = (await (
      await b.postJson("/api/login", { username: "user", password: "password" })
    ).json()) as { accessToken: string };
    const bearer = { authorization: `Bearer ${login.accessToken}`, accept: "application/json" };
    const { result, code } = await codeAfter(file, "user", () =>
      b.fetch("/api/account/security", { headers: bearer }),
    );
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toBe('Bearer error="insufficient_user_authentication"');
    expect(await result.json()).toMatchObject({ code: "MFA_CHALLENGE_REQUIRED" });
    const done = await b.postJson(
      "/login/mfa-ott",
      { token: code },
      { authorization: `Bearer ${login.accessToken}` },
    );
    expect(done.status).toBe(200);
    const upgraded = (await done.json()) as { accessToken: string; stepUp: boolean };
    expect(upgraded.stepUp).toBe(true);
    const oldClaims = decodeJwt(login.accessToken);
    const newClaims = decodeJwt(upgraded.accessToken);
    expect(newClaims.auth_time).toBe(oldClaims.auth_time);
    expect(newClaims.amr).toEqual(["pwd", "otp"]);
    const ok = await b.fetch("/api/account/security", {
      headers: { authorization: `Bearer ${upgraded.accessToken}` },
    });
    expect(ok.status).toBe(200);
  });

  it("an anonymous caller gets 401 AUTHENTICATION_REQUIRED, not a step-up", async () => {
    const res = await new Browser(s.url).fetch("/api/account/security", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
  });
});
