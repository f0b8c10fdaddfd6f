import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  startDemo,
} from "../../support/demo-server.js";

// README, "Escalation review, step by step": the demo started with the adaptive policy and lowered
// thresholds; `user` mistypes the password once, then signs in from a client never seen (score 0.5 no
// history + 0.08 one failure = 0.58 >= strict 0.55): ESCALATED. `admin2` signs in (code), lists and
// approves; `user`'s poll then answers with tokens. The requests are the README's, one for one.

/** The environment the README starts `pnpm start` with. */
const README_ENV = {
  PLATFORM_AUTH_MFA_POLICY: "adaptive",
  SECURITY_ZEROTRUST_THRESHOLDS_REQUIRED: "0.55",
  SECURITY_ZEROTRUST_THRESHOLDS_STRICT: "0.55",
};

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo(README_ENV);
});
afterAll(() => demo.close());

const url = (path: string) => `${demo.base}${path}`;

describe("README: provoke an ESCALATED sign-in in the demo and approve it as admin2", () => {
  it("user is held, admin2 approves, user's poll signs in once", async () => {
    // 1. A wrong password for user, then the right one.
    const wrong = await fetch(url("/api/login"), json("POST", { username: "user", password: "wrong" }));
    expect(wrong.status).toBe(401);
    const held = await fetch(url("/api/login"), json("POST", { username: "user", password: "password" }));
    const escalation = (await held.json()) as Record<string, unknown>;
    expect(held.status, JSON.stringify(escalation)).toBe(202);
    expect(escalation).toMatchObject({
      escalated: true,
      status: "PENDING",
      statusUrl: "/api/token-mfa/api/mfa/escalation",
      mfaBinding: expect.any(String),
    });
    expect(escalation).not.toHaveProperty("accessToken");
    const poll = () =>
      fetch(url("/api/token-mfa/api/mfa/escalation"), {
        headers: { "x-mfa-binding": String(escalation.mfaBinding) },
      });

    // 2. The poll waits.
    const pending = await poll();
    expect(pending.status).toBe(200);
    expect(await pending.json()).toMatchObject({ status: "PENDING" });

    // 3. admin2 signs in (its first sign-in is challenged: a code) and lists the escalations.
    const { result: login, code } = await demo.codeAfter("admin2", () =>
      fetch(url("/api/login"), json("POST", { username: "admin2", password: "admin2" })),
    );
    const mfa = (await login.json()) as ApiMfaRequired;
    expect(mfa).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    const verified = await fetch(
      url("/api/token-mfa/login/mfa-ott"),
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    const { accessToken } = (await verified.json()) as { accessToken: string };
    expect(verified.status).toBe(200);
    const admin2 = { authorization: `Bearer ${accessToken}` };
    const list = await fetch(url("/admin/api/mfa/escalations"), { headers: admin2 });
    const pendingList = (await list.json()) as { id: string; username: string; reason: string }[];
    expect(list.status).toBe(200);
    expect(pendingList).toHaveLength(1);
    const [entry] = pendingList;
    expect(entry).toMatchObject({ username: "user", reason: expect.stringContaining("strict") });

    // 4. admin2 approves.
    const approved = await fetch(url(`/admin/api/mfa/escalations/${entry!.id}/approve`), {
      method: "POST",
      headers: admin2,
    });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toEqual({ id: entry!.id, status: "APPROVED", decidedBy: "admin2" });

    // 5. user's poll signs in, with tokens, once.
    const signedIn = await poll();
    const tokens = (await signedIn.json()) as Record<string, unknown>;
    expect(signedIn.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens).toMatchObject({ success: true, tokenType: "Bearer", accessToken: expect.any(String) });
    const me = await fetch(url("/api/me"), { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect(await me.json()).toMatchObject({ username: "user" });
    const again = await poll();
    expect(again.status).toBe(401);
  });

  it("an administrator at a strict score is challenged, never held for review (the floor, attack F1)", async () => {
    expect(
      (await fetch(url("/api/login"), json("POST", { username: "admin", password: "nope" }))).status,
    ).toBe(401);
    const { result: login, code } = await demo.codeAfter("admin", () =>
      fetch(url("/api/login"), json("POST", { username: "admin", password: "admin" })),
    );
    const mfa = (await login.json()) as ApiMfaRequired;
    expect(login.status).toBe(200);
    expect(mfa).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    const verified = await fetch(
      url(mfa.endpoints.verifyOtt),
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    expect(await verified.json()).toMatchObject({ success: true, accessToken: expect.any(String) });
  });
});
