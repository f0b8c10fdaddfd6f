import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  startDemo,
} from "../../support/demo-server.js";
import { Browser, MFA_COOKIE } from "./mfa-test-support.js";

// Hostile uses of the API MFA binding (X-MFA-Session-Id + X-MFA-Binding) on the demo: the header is
// accepted only where the cookie would be, under the same checks, and never weakens the cookie path.

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(() => demo.close());

const url = (path: string) => `${demo.base}${path}`;

/** admin's API sign-in up to "MFA required", with the mailed code. */
async function apiChallenge(): Promise<{ mfa: ApiMfaRequired; code: string }> {
  const { result, code } = await demo.codeAfter("admin", () =>
    fetch(url("/api/login"), json("POST", { username: "admin", password: "admin" })),
  );
  expect(result.status).toBe(200);
  return { mfa: (await result.json()) as ApiMfaRequired, code };
}

async function expectRefused(res: Response, status: number, code: string): Promise<void> {
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({ code });
  expect(body).not.toHaveProperty("accessToken");
}

/** The flow still takes its code afterwards: a refusal consumed nothing and counted no attempt. */
async function expectStillUsable(mfa: ApiMfaRequired, code: string): Promise<void> {
  const status = await fetch(url(mfa.endpoints.status), { headers: bindingHeaders(mfa) });
  expect(await status.json()).toMatchObject({ state: "OTT_CHALLENGE", attemptsMade: 0 });
  const ok = await fetch(url(mfa.endpoints.verifyOtt), json("POST", { token: code }, bindingHeaders(mfa)));
  expect(ok.status).toBe(200);
}

describe("API MFA binding: hostile requests", () => {
  it("the session id without the binding (no header, no cookie): 403, nothing verified", async () => {
    const { mfa, code } = await apiChallenge();
    const res = await fetch(
      url(mfa.endpoints.verifyOtt),
      json("POST", { token: code }, { "x-mfa-session-id": mfa.mfaSessionId }),
    );
    await expectRefused(res, 403, "MFA_SESSION_BINDING_INVALID");
    await expectStillUsable(mfa, code);
  });

  it("a forged binding (right id, wrong secret; malformed; too long): 403", async () => {
    const { mfa, code } = await apiChallenge();
    for (const forged of [
      `${mfa.mfaSessionId}.${"A".repeat(43)}`,
      `${mfa.mfaSessionId}.`,
      mfa.mfaSessionId,
      `${mfa.mfaBinding}x`,
      `${mfa.mfaSessionId}.${"x".repeat(300)}`,
    ]) {
      const res = await fetch(
        url(mfa.endpoints.verifyOtt),
        json("POST", { token: code }, { "x-mfa-session-id": mfa.mfaSessionId, "x-mfa-binding": forged }),
      );
      await expectRefused(res, 403, "MFA_SESSION_BINDING_INVALID");
    }
    await expectStillUsable(mfa, code);
  });

  it("another API flow's binding under this flow's id: 403", async () => {
    const first = await apiChallenge();
    const second = await apiChallenge();
    const res = await fetch(
      url(first.mfa.endpoints.verifyOtt),
      json(
        "POST",
        { token: first.code },
        {
          "x-mfa-session-id": first.mfa.mfaSessionId,
          "x-mfa-binding": second.mfa.mfaBinding,
        },
      ),
    );
    await expectRefused(res, 403, "MFA_SESSION_BINDING_INVALID");
    await expectStillUsable(first.mfa, first.code);
  });

  it("the session flow's binding (a browser's PLATFORM_MFA) at the API flow's endpoints: 403", async () => {
    const b = new Browser(demo.base);
    const csrf = await b.csrfFrom("/login");
    const { code } = await demo.codeAfter("admin", () =>
      b.postForm(
        "/login",
        { username: "admin", password: "admin", _csrf: csrf },
        { accept: "application/json" },
      ),
    );
    const cookie = b.cookies.get(MFA_COOKIE)!;
    const sessionFlowId = cookie.split(".")[0]!;
    const res = await fetch(
      url("/api/token-mfa/login/mfa-ott"),
      json("POST", { token: code }, { "x-mfa-session-id": sessionFlowId, "x-mfa-binding": cookie }),
    );
    await expectRefused(res, 403, "MFA_SESSION_BINDING_INVALID");
  });

  it("the session flow never puts its binding in the body", async () => {
    const b = new Browser(demo.base);
    const csrf = await b.csrfFrom("/login");
    const { result } = await demo.codeAfter("admin", () =>
      b.postForm(
        "/login",
        { username: "admin", password: "admin", _csrf: csrf },
        { accept: "application/json" },
      ),
    );
    const body = (await result.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ mfaRequired: true, endpoints: { verifyOtt: "/login/mfa-ott" } });
    expect(body).not.toHaveProperty("mfaBinding");
  });

  it("a header and a cookie that disagree: 403, even when one of them is right", async () => {
    const { mfa, code } = await apiChallenge();
    const other = await apiChallenge();
    const disagreeing: Record<string, string>[] = [
      { ...bindingHeaders(mfa), cookie: `${MFA_COOKIE}=${other.mfa.mfaBinding}` },
      {
        "x-mfa-session-id": mfa.mfaSessionId,
        "x-mfa-binding": other.mfa.mfaBinding,
        cookie: `${MFA_COOKIE}=${mfa.mfaBinding}`,
      },
    ];
    for (const headers of disagreeing) {
      const res = await fetch(url(mfa.endpoints.verifyOtt), json("POST", { token: code }, headers));
      await expectRefused(res, 403, "MFA_SESSION_BINDING_INVALID");
    }
    // Header and cookie alike, or the cookie alone: accepted as before.
    const agreeing = await fetch(url(mfa.endpoints.status), {
      headers: { ...bindingHeaders(mfa), cookie: `${MFA_COOKIE}=${mfa.mfaBinding}` },
    });
    expect(agreeing.status).toBe(200);
    const cookieOnly = await fetch(url(mfa.endpoints.status), {
      headers: { cookie: `${MFA_COOKIE}=${mfa.mfaBinding}`, accept: "application/json" },
    });
    expect(cookieOnly.status).toBe(200);
    await expectStillUsable(mfa, code);
  });

  it("replay after success, and the binding of a finished flow: 401 MFA_SESSION_EXPIRED, no tokens", async () => {
    const { mfa, code } = await apiChallenge();
    const ok = await fetch(url(mfa.endpoints.verifyOtt), json("POST", { token: code }, bindingHeaders(mfa)));
    expect(ok.status).toBe(200);
    const replay = await fetch(
      url(mfa.endpoints.verifyOtt),
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    await expectRefused(replay, 401, "MFA_SESSION_EXPIRED");
    for (const path of [mfa.endpoints.generateCode, mfa.endpoints.cancel]) {
      await expectRefused(
        await fetch(url(path), { method: "POST", headers: bindingHeaders(mfa) }),
        401,
        "MFA_SESSION_EXPIRED",
      );
    }
    await expectRefused(
      await fetch(url(mfa.endpoints.status), { headers: bindingHeaders(mfa) }),
      401,
      "MFA_SESSION_EXPIRED",
    );
  });

  it("two concurrent verifications of one code: exactly one gets tokens", async () => {
    const { mfa, code } = await apiChallenge();
    const both = await Promise.all(
      [1, 2].map(() =>
        fetch(url(mfa.endpoints.verifyOtt), json("POST", { token: code }, bindingHeaders(mfa))),
      ),
    );
    const bodies = (await Promise.all(both.map((r) => r.json()))) as Record<string, unknown>[];
    expect(bodies.filter((b) => typeof b.accessToken === "string")).toHaveLength(1);
    expect(both.map((r) => r.status).sort()).toEqual([200, expect.any(Number)]);
  });

  it("a wrong content type: 415 as JSON (the header marks an API client), no attempt counted", async () => {
    const { mfa, code } = await apiChallenge();
    const res = await fetch(url(mfa.endpoints.verifyOtt), {
      method: "POST",
      headers: { ...bindingHeaders(mfa), "content-type": "text/plain" },
      body: code,
    });
    await expectRefused(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectStillUsable(mfa, code);
  });

  it("the API flow still sets its binding cookie HttpOnly and SameSite=Strict (a cross-site form never carries it)", async () => {
    const { result } = await demo.codeAfter("admin", () =>
      fetch(url("/api/login"), json("POST", { username: "admin", password: "admin" })),
    );
    const cookie = result.headers.getSetCookie().find((c) => c.startsWith(`${MFA_COOKIE}=`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });
});
