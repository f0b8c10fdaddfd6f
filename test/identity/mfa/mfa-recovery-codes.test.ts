import { recoveryCodesPlugin, totpPlugin } from "@keyward/core";
import { AuditLog, EventBus, RecoveryCodeStore, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type IdentityTestServer,
  newOutboxFile,
  outbox,
  primaryForm,
  verify,
  waitForLine,
  startFactorFlowServer,
} from "./mfa-test-support.js";

const CREATE = "/api/account/recovery-codes";
const VERIFY = "/login/mfa-recovery";

// One server: an MFA flow offering the e-mailed code, an authenticator app and recovery codes (one
// required, so a recovery code is one choice among named factors), admin challenged.
describe("recovery codes: made after a fresh factor, each signs in once", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startFactorFlowServer({
      outbox: file,
      factors: ["TOTP", "RECOVERY_CODE"],
      plugins: [totpPlugin, recoveryCodesPlugin],
    });
    s.platform.resolve(EventBus).on("mfa.ErrorEvent", (e) => {
      mfaErrors.push(e.payload as Record<string, unknown>);
    });
  });
  afterAll(() => s.close());
  const mfaErrors: Record<string, unknown>[] = [];

  /** Admin signed in with the e-mailed code (a fresh second factor). */
  async function freshAdmin(): Promise<{ b: Browser; csrf: string }> {
    const b = new Browser(s.url);
    const first = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    expect((await verify(b, await csrfOfSession(b), first.code)).status).toBe(200);
    return { b, csrf: await csrfOfSession(b) };
  }

  /** A new admin sign-in with the recovery-code challenge open (its automatic OTT code consumed). */
  async function recoveryChallenge(): Promise<{ b: Browser; csrf: string; availableFactors: string[] }> {
    const b = new Browser(s.url);
    const started = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    const { availableFactors } = (await started.result.json()) as { availableFactors: string[] };
    const csrf = await csrfOfSession(b);
    const selected = await b.postJson(
      "/mfa/select-factor",
      { factorType: "RECOVERY_CODE" },
      { "x-csrf-token": csrf },
    );
    expect(await selected.json()).toMatchObject({
      state: "FACTOR_CHALLENGE",
      currentFactor: "RECOVERY_CODE",
    });
    return { b, csrf, availableFactors };
  }

  /** POSTs a new set; waits for the notice it sends (so later outbox reads see their own lines). */
  async function createCodes(b: Browser, csrf: string, body: unknown = {}): Promise<string[]> {
    const before = outbox(file).length;
    const made = await b.postJson(CREATE, body, { "x-csrf-token": csrf });
    expect(made.status).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    const notice = (await waitForLine(file, before + 1)) as unknown as Record<string, string>;
    expect(notice).toMatchObject({ channel: "account-notice", username: "admin", token: "" });
    expect(notice.notice).toContain("A new set of recovery codes was made");
    const { codes, count } = (await made.json()) as { codes: string[]; count: number };
    expect(count).toBe(codes.length);
    return codes;
  }

  const raw = (b: Browser, path: string, csrf: string, body: string, type = "application/json") =>
    b.fetch(path, {
      method: "POST",
      headers: { "content-type": type, accept: "application/json", "x-csrf-token": csrf },
      body,
    });

  it("refuses anonymous callers, and a caller without a fresh factor gets a started step-up", async () => {
    const anonymous = new Browser(s.url);
    const csrf0 = await csrfOfSession(anonymous).catch(() => "");
    const refused = await anonymous.postJson(CREATE, {}, { "x-csrf-token": csrf0 });
    expect([401, 403]).toContain(refused.status);
    const b = new Browser(s.url);
    expect((await primaryForm(b, "user", "password", true)).status).toBe(200);
    const csrf = await csrfOfSession(b);
    const { result } = await codeAfter(file, "user", () => b.postJson(CREATE, {}, { "x-csrf-token": csrf }));
    expect(result.status).toBe(401);
    expect(await result.json()).toMatchObject({
      code: "MFA_CHALLENGE_REQUIRED",
      currentState: "OTT_CHALLENGE",
    });
    const userId = (await s.platform.resolve(UserRepository).findByUsername("user"))?.id ?? "";
    expect(await s.platform.resolve(RecoveryCodeStore).remaining(userId)).toBe(0);
  });

  it("creates ten codes once (no-store), refuses bad bodies, signs in with one once, counts wrong ones, voids an old set", async () => {
    const { b, csrf } = await freshAdmin();
    const adminId = (await s.platform.resolve(UserRepository).findByUsername("admin"))?.id ?? "";
    const store = s.platform.resolve(RecoveryCodeStore);
    // Bad bodies change nothing.
    expect((await raw(b, CREATE, csrf, "{not json")).status).toBe(400);
    expect((await raw(b, CREATE, csrf, "codes=1", "text/plain")).status).toBe(415);
    expect((await raw(b, CREATE, csrf, JSON.stringify({ pad: "x".repeat(2_000_000) }))).status).toBe(413);
    expect(await store.remaining(adminId)).toBe(0);
    // A hostile body cannot choose a code; a second set voids the first.
    const old = await createCodes(b, csrf, { codes: ["AAAAA-AAAAA"], count: 99, __proto__: { x: 1 } });
    expect(old).not.toContain("AAAAA-AAAAA");
    const codes = await createCodes(b, csrf);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    expect(await store.remaining(adminId)).toBe(10);
    const audited = await s.platform
      .resolve(AuditLog)
      .query({ type: "auth.mfa.recovery-codes.created", limit: 10 });
    expect(audited.filter((e) => e.principal === "admin")).toHaveLength(2);

    // Sign in with a code: wrong, old and malformed answers count; bad bodies are refused uncounted.
    const c = await recoveryChallenge();
    expect(c.availableFactors).toEqual(["OTT", "RECOVERY_CODE"]);
    const page = await c.b.fetch("/mfa/challenge/recovery");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Enter one of your recovery codes");
    expect(html).toContain(`inputmode="text"`);
    expect((await raw(c.b, VERIFY, c.csrf, "{not json")).status).toBe(400);
    expect((await raw(c.b, VERIFY, c.csrf, JSON.stringify({ token: "x".repeat(2_000_000) }))).status).toBe(
      413,
    );
    const wrongOld = await verify(c.b, c.csrf, old[0] ?? "", {}, VERIFY);
    expect(wrongOld.status).toBe(401);
    expect(await wrongOld.json()).toMatchObject({ code: "MFA_FACTOR_VERIFICATION_FAILED", attemptsMade: 1 });
    const hostile = await c.b.postJson(VERIFY, { token: { $ne: "" } }, { "x-csrf-token": c.csrf });
    expect(await hostile.json()).toMatchObject({ code: "MFA_FACTOR_VERIFICATION_FAILED", attemptsMade: 2 });
    const linesBefore = outbox(file).length;
    const used = codes[3] ?? "";
    const ok = await verify(c.b, c.csrf, ` ${used.toLowerCase().replace("-", " ")} `, {}, VERIFY);
    expect(ok.status).toBe(200);
    const me = await c.b.fetch("/api/me", { headers: { accept: "application/json" } });
    expect(((await me.json()) as { factors: string[] }).factors).toContain("otp");
    expect(await store.remaining(adminId)).toBe(9);

    // The user is told, with the count left and without the code.
    const notice = (await waitForLine(file, linesBefore + 1)) as unknown as Record<string, string>;
    expect(notice).toMatchObject({ channel: "account-notice", username: "admin", token: "" });
    expect(notice.notice).toContain("9 of your recovery codes are left");
    expect(JSON.stringify(notice)).not.toContain(used.replace("-", ""));

    // The same code never works twice.
    const d = await recoveryChallenge();
    const again = await verify(d.b, d.csrf, used, {}, VERIFY);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ code: "MFA_FACTOR_VERIFICATION_FAILED", attemptsMade: 1 });
    const beforeSecond = outbox(file).length;
    expect((await verify(d.b, d.csrf, codes[4] ?? "", {}, VERIFY)).status).toBe(200);
    expect(await store.remaining(adminId)).toBe(8);
    expect((await waitForLine(file, beforeSecond + 1)) as unknown as Record<string, string>).toMatchObject({
      channel: "account-notice",
      notice: expect.stringContaining("8 of your recovery codes are left"),
    });
  });

  // Last: it locks the admin account for the rest of the file.
  it("counts wrong recovery codes toward the user's lockout; the MFA events name the factor", async () => {
    const { csrf, b } = await freshAdmin();
    await createCodes(b, csrf);
    mfaErrors.length = 0;
    const c = await recoveryChallenge();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await verify(c.b, c.csrf, "ZZZZZ-ZZZZZ", {}, VERIFY)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    expect(mfaErrors.map((e) => [e.code, e.factor])).toEqual([
      ...Array.from({ length: 4 }, () => ["MFA_FACTOR_VERIFICATION_FAILED", "RECOVERY_CODE"]),
      ["ACCOUNT_LOCKED", "RECOVERY_CODE"],
    ]);
    // The lock holds across flows: the e-mailed code of a new flow is refused too.
    const d = new Browser(s.url);
    const refused = await primaryForm(d, "admin", "admin", true);
    expect([401, 423]).toContain(refused.status);
  });
});

// satisfiesNamedFactors=true: a flow naming only the e-mailed code accepts a recovery code in its place.
describe("recovery codes allowed to stand in for a named factor", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startFactorFlowServer({
      outbox: file,
      factors: ["RECOVERY_CODE"],
      plugins: [recoveryCodesPlugin],
      properties: { "platform.auth.mfa.recoveryCode.satisfiesNamedFactors": true },
    });
  });
  afterAll(() => s.close());

  it("signs in with a recovery code where the flow names only the e-mailed code", async () => {
    const a = new Browser(s.url);
    const first = await codeAfter(file, "admin", () => primaryForm(a, "admin", "admin", true));
    expect((await verify(a, await csrfOfSession(a), first.code)).status).toBe(200);
    const beforeCreate = outbox(file).length;
    const made = await a.postJson(CREATE, {}, { "x-csrf-token": await csrfOfSession(a) });
    const { codes } = (await made.json()) as { codes: string[] };
    // The new set's notice is written before the next sign-in's code is looked for.
    expect(await waitForLine(file, beforeCreate + 1)).toMatchObject({ channel: "account-notice" });
    const b = new Browser(s.url);
    const started = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    expect(((await started.result.json()) as { availableFactors: string[] }).availableFactors).toEqual([
      "OTT",
      "RECOVERY_CODE",
    ]);
    const csrf = await csrfOfSession(b);
    await b.postJson("/mfa/select-factor", { factorType: "RECOVERY_CODE" }, { "x-csrf-token": csrf });
    expect((await verify(b, csrf, codes[0] ?? "", {}, VERIFY)).status).toBe(200);
  });
});
