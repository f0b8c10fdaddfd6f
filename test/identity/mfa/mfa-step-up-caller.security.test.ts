import { currentAuthentication } from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  demoSecurity,
  type IdentityTestServer,
  JSON_ACCEPT,
  MFA_COOKIE,
  me,
  newOutboxFile,
  primaryForm,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

// Attack F4 (after issue #12): finishing a bearer step-up did not check who sent it; the two MFA
// headers and the code upgraded the original user's sign-in for a request carrying another user's
// token, or only an anonymous session and its CSRF token. The completing request must carry the very
// sign-in the step-up started from; anything else is refused before the code is judged.

interface StepUp {
  tokens: { accessToken: string; refreshToken: string };
  bearer: Record<string, string>;
  code: string;
  headers: Record<string, string>;
  verifyOtt: string;
}

function amrAndSid(accessToken: string): { amr: string[]; sid: string } {
  return JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as {
    amr: string[];
    sid: string;
  };
}

describe("a step-up is finished only by the sign-in it upgrades", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      security: demoSecurity,
      // Nobody is challenged at sign-in: every user gets tokens directly; step-up is the only MFA.
      properties: { "platform.auth.mfa.requiredAuthorities": "" },
      routes: (routes) => {
        const handler = (ex: Parameters<typeof currentAuthentication>[0]) => ({
          factors: currentAuthentication(ex)?.factors.map((f) => f.type),
        });
        routes.add({ method: "GET", path: "/account/security", handler });
        routes.add({ method: "GET", path: "/api/account/security", handler });
      },
    });
  });
  afterAll(() => s.close());

  async function tokensOf(username: string, password: string) {
    const res = await fetch(`${s.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json", ...JSON_ACCEPT },
      body: JSON.stringify({ username, password }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { accessToken: string; refreshToken: string };
  }

  /** `user` signs in with tokens and meets a step-up (a code is mailed). */
  async function bearerStepUp(): Promise<StepUp> {
    const tokens = await tokensOf("user", "password");
    const bearer = { authorization: `Bearer ${tokens.accessToken}` };
    const { result, code } = await codeAfter(file, "user", () =>
      fetch(`${s.url}/api/account/security`, { headers: { ...bearer, ...JSON_ACCEPT } }),
    );
    expect(result.status).toBe(401);
    const body = (await result.json()) as { mfaBinding: string; endpoints: { verifyOtt: string } };
    const headers = {
      "x-mfa-session-id": body.mfaBinding.split(".")[0]!,
      "x-mfa-binding": body.mfaBinding,
    };
    return { tokens, bearer, code, headers, verifyOtt: body.endpoints.verifyOtt };
  }

  function complete(up: StepUp, headers: Record<string, string>): Promise<Response> {
    return fetch(`${s.url}${up.verifyOtt}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...JSON_ACCEPT, ...up.headers, ...headers },
      body: JSON.stringify({ token: up.code }),
    });
  }

  async function expectRefusedThenRightfulWorks(up: StepUp, refused: Response): Promise<void> {
    const body = (await refused.json()) as Record<string, unknown>;
    expect([refused.status, body.code, body.accessToken]).toEqual([401, "MFA_SIGN_IN_ENDED", undefined]);
    // Nothing was spent: the rightful client finishes with the same code.
    const done = await complete(up, up.bearer);
    const tokens = (await done.json()) as { accessToken: string };
    expect(done.status, JSON.stringify(tokens)).toBe(200);
    expect(amrAndSid(tokens.accessToken).amr).toContain("otp");
  }

  it("another user's bearer token is refused", async () => {
    const up = await bearerStepUp();
    const other = await tokensOf("admin", "admin");
    await expectRefusedThenRightfulWorks(
      up,
      await complete(up, { authorization: `Bearer ${other.accessToken}` }),
    );
  });

  it("no bearer token, only an anonymous session and its CSRF token, is refused", async () => {
    const up = await bearerStepUp();
    const anon = new Browser(s.url);
    const csrf = await csrfOfSession(anon);
    const refused = await anon.postJson(
      up.verifyOtt,
      { token: up.code },
      { ...up.headers, "x-csrf-token": csrf },
    );
    await expectRefusedThenRightfulWorks(up, refused);
  });

  it("the same user's token of another sign-in (another sid) is refused", async () => {
    const up = await bearerStepUp();
    const second = await tokensOf("user", "password");
    expect(amrAndSid(second.accessToken).sid).not.toBe(amrAndSid(up.tokens.accessToken).sid);
    await expectRefusedThenRightfulWorks(
      up,
      await complete(up, { authorization: `Bearer ${second.accessToken}` }),
    );
  });

  it("the right bearer token finishes it: the same sign-in (sid) gains otp", async () => {
    const up = await bearerStepUp();
    const done = await complete(up, up.bearer);
    const tokens = (await done.json()) as { accessToken: string };
    expect(done.status).toBe(200);
    const claims = amrAndSid(tokens.accessToken);
    expect(claims.amr).toContain("otp");
    expect(claims.sid).toBe(amrAndSid(up.tokens.accessToken).sid);
  });

  it("a session step-up: another client with the cookie copy is refused and the flow is not spent", async () => {
    const b = new Browser(s.url);
    await primaryForm(b, "user", "password");
    const { result, code } = await codeAfter(file, "user", () =>
      b.fetch("/account/security", { headers: { ...JSON_ACCEPT } }),
    );
    expect(result.status).toBe(401);
    const thief = new Browser(s.url);
    const thiefCsrf = await csrfOfSession(thief);
    thief.cookies.set(MFA_COOKIE, b.cookies.get(MFA_COOKIE)!);
    const refused = await verify(thief, thiefCsrf, code);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      401,
      "MFA_SIGN_IN_ENDED",
    ]);
    expect((await me(thief)).status).toBe(401);
    const done = await verify(b, await csrfOfSession(b), code);
    expect(done.status).toBe(200);
    expect((await b.fetch("/account/security", { headers: { ...JSON_ACCEPT } })).status).toBe(200);
  });
});
