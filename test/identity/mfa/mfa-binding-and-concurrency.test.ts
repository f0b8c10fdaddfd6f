import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type IdentityTestServer,
  me,
  MFA_COOKIE,
  mfaStatus,
  newOutboxFile,
  primaryForm,
  SESSION_COOKIE,
  startAdminMfa,
  startMfaServer,
  verify,
  wrongCode,
} from "./mfa-test-support.js";

/** Status and stable code of an answer (its JSON body must carry a string `code`, never a stack). */
async function outcome(
  res: Response,
): Promise<{ status: number; code: string | undefined; body: Record<string, unknown> }> {
  const text = await res.text();
  expect(text).not.toMatch(/\n\s+at |node_modules/);
  const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  return { status: res.status, code: typeof body.code === "string" ? body.code : undefined, body };
}

describe("the MFA session is bound to the browser that passed the primary step", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file });
  });
  afterAll(() => s.close());

  /** Another browser with its own session and CSRF token. */
  async function attacker(): Promise<{ b: Browser; csrf: string }> {
    const b = new Browser(s.url);
    return { b, csrf: await csrfOfSession(b) };
  }

  it("another browser presenting the victim's mfaSessionId (header, body, forged cookie) never progresses", async () => {
    const victim = await startAdminMfa(s, file);
    const id = victim.body.mfaSessionId;
    const attempts: [string, () => Promise<Response>][] = [
      [
        "header",
        async () => {
          const a = await attacker();
          return a.b.postJson(
            "/login/mfa-ott",
            { token: victim.code },
            { "x-csrf-token": a.csrf, "x-mfa-session-id": id },
          );
        },
      ],
      [
        "body",
        async () => {
          const a = await attacker();
          return verify(a.b, a.csrf, victim.code, { mfaSessionId: id });
        },
      ],
      [
        "cookie with a wrong secret",
        async () => {
          const a = await attacker();
          a.b.cookies.set(MFA_COOKIE, `${id}.${"A".repeat(43)}`);
          return verify(a.b, a.csrf, victim.code);
        },
      ],
      [
        "cookie without a secret",
        async () => {
          const a = await attacker();
          a.b.cookies.set(MFA_COOKIE, id);
          return verify(a.b, a.csrf, victim.code, { mfaSessionId: id });
        },
      ],
    ];
    for (const [how, attempt] of attempts) {
      const got = await outcome(await attempt());
      expect([401, 403], `${how}: ${JSON.stringify(got.body)}`).toContain(got.status);
      if (got.status === 403) expect(got.code, how).toBe("MFA_SESSION_BINDING_INVALID");
      expect(got.body, how).not.toHaveProperty("redirectUrl");
    }
    // The victim's flow did not move: no failed attempt was counted, and the code still works.
    expect((await mfaStatus(victim.b)).body).toMatchObject({ state: "OTT_CHALLENGE", attemptsMade: 0 });
    const ok = await verify(victim.b, victim.csrf, victim.code);
    expect(ok.status).toBe(200);
    expect((await me(victim.b)).body).toMatchObject({ username: "admin", method: "mfa" });
  });

  it("the binding is checked on every MFA endpoint (status, resend, select, cancel)", async () => {
    const victim = await startAdminMfa(s, file);
    const id = victim.body.mfaSessionId;
    const a = await attacker();
    const headers = { "x-csrf-token": a.csrf, "x-mfa-session-id": id };
    const answers = [
      await a.b.fetch("/api/mfa/status", { headers: { accept: "application/json", "x-mfa-session-id": id } }),
      await a.b.postJson("/mfa/ott/generate-code", {}, headers),
      await a.b.postJson("/mfa/select-factor", { factorType: "OTT" }, headers),
      await a.b.postJson("/mfa/cancel", { mfaSessionId: id }, headers),
    ];
    for (const res of answers) {
      const got = await outcome(res);
      expect(got.status, JSON.stringify(got.body)).toBe(403);
      expect(got.code).toBe("MFA_SESSION_BINDING_INVALID");
    }
    expect((await mfaStatus(victim.b)).body).toMatchObject({ state: "OTT_CHALLENGE" });
    expect((await verify(victim.b, victim.csrf, victim.code)).status).toBe(200);
  });

  it("an attacker's own live flow does not authorise the victim's mfaSessionId", async () => {
    const victim = await startAdminMfa(s, file);
    const own = await startAdminMfa(s, file);
    const res = await verify(own.b, own.csrf, victim.code, { mfaSessionId: victim.body.mfaSessionId });
    const got = await outcome(res);
    expect(got.status).toBe(403);
    expect(got.code).toBe("MFA_SESSION_BINDING_INVALID");
    expect((await me(own.b)).status).toBe(401);
    expect((await verify(victim.b, victim.csrf, victim.code)).status).toBe(200);
  });

  it("the binding cookie is HttpOnly and SameSite=Strict", async () => {
    const b = new Browser(s.url);
    const { result } = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    const cookie = result.headers.getSetCookie().find((c) => c.startsWith(`${MFA_COOKIE}=`));
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
  });
});

describe("concurrent steps on one MFA session", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file });
  });
  afterAll(() => s.close());

  it("two concurrent wrong codes: clean failures, the count is 1 or 2, the flow stays usable", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    const answers = await Promise.all([
      verify(b, csrf, wrongCode(code)),
      verify(b, csrf, wrongCode(wrongCode(code))),
    ]);
    for (const res of answers) {
      const got = await outcome(res);
      expect(got.status).toBe(401);
      expect(got.code).toBe("MFA_FACTOR_VERIFICATION_FAILED");
      expect([1, 2]).toContain(got.body.attemptsMade);
    }
    const status = await mfaStatus(b);
    expect(status.body).toMatchObject({ state: "OTT_CHALLENGE", currentFactor: "OTT" });
    expect([1, 2]).toContain(status.body.attemptsMade);
    expect((await verify(b, csrf, code)).status).toBe(200);
  });

  it("two concurrent right codes: exactly one completes, the other gets a stable 4xx; one new session", async () => {
    for (let round = 0; round < 5; round++) {
      const { b, code, csrf } = await startAdminMfa(s, file);
      const before = b.cookies.get(SESSION_COOKIE);
      const answers = await Promise.all([verify(b, csrf, code), verify(b, csrf, code)]);
      const sessions = answers.flatMap((r) =>
        r.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_COOKIE}=`)),
      );
      const got = await Promise.all(answers.map(outcome));
      const winners = got.filter((g) => g.status === 200);
      const losers = got.filter((g) => g.status !== 200);
      expect(winners, JSON.stringify(got)).toHaveLength(1);
      expect(winners[0]!.body).toMatchObject({ success: true, redirectUrl: "/" });
      expect(losers).toHaveLength(1);
      const loser = losers[0]!;
      // The repository's internal NOT_FOUND must not leak: the documented answer for a flow that is gone.
      expect(
        ["409 CONFLICT", "401 MFA_SESSION_EXPIRED", "401 MFA_SESSION_REQUIRED", "403 CSRF_TOKEN_INVALID"],
        `round ${round}: ${JSON.stringify(loser.body)}`,
      ).toContain(`${loser.status} ${loser.code}`);
      expect(sessions).toHaveLength(1);
      expect(b.cookies.get(SESSION_COOKIE)).not.toBe(before);
      expect((await me(b)).body).toMatchObject({ username: "admin", method: "mfa", factors: ["pwd", "otp"] });
    }
  });

  it("a right code racing wrong ones is never told apart by a different answer (no code oracle)", async () => {
    for (let round = 0; round < 5; round++) {
      const { b, code, csrf } = await startAdminMfa(s, file);
      const answers = await Promise.all([
        verify(b, csrf, wrongCode(code)),
        verify(b, csrf, code),
        verify(b, csrf, wrongCode(wrongCode(code))),
      ]);
      const right = await outcome(answers[1]!);
      // Either the right code wins, or it answers exactly like a wrong one would.
      expect(
        right.status === 200 || (right.status === 401 && right.code === "MFA_FACTOR_VERIFICATION_FAILED"),
        `round ${round}: right code answered ${right.status} ${JSON.stringify(right.body)}`,
      ).toBe(true);
    }
  });
});

describe("a parallel burst of guesses cannot exceed maxRetryAttempts", () => {
  const file = newOutboxFile();
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file });
  });
  afterAll(() => s.close());

  it("of 20 concurrent wrong codes at most 5 are judged; the flow ends locked", async () => {
    const { b, code, csrf } = await startAdminMfa(s, file);
    const guesses = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"),
    );
    const got = await Promise.all((await Promise.all(guesses.map((g) => verify(b, csrf, g)))).map(outcome));
    for (const g of got) expect(g.status).toBeLessThan(500);
    const summary = got.map((g) => `${g.status} ${g.code}`).join(", ");
    // Every guess is counted: at most 4 are told "wrong code", the 5th locks, later ones hear "locked"
    // (or that the flow ended) without their code being compared.
    for (const g of got)
      expect(["MFA_FACTOR_VERIFICATION_FAILED", "ACCOUNT_LOCKED", "MFA_SESSION_EXPIRED"], summary).toContain(
        g.code,
      );
    expect(
      got.filter((g) => g.code === "MFA_FACTOR_VERIFICATION_FAILED").length,
      summary,
    ).toBeLessThanOrEqual(4);
    expect(got.filter((g) => g.code === "ACCOUNT_LOCKED").length, summary).toBeGreaterThanOrEqual(1);
  });
});
