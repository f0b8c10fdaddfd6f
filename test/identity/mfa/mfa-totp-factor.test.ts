import { totpPlugin } from "@keyward/core";
import { createHmac } from "node:crypto";
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
  wrongCode,
  startFactorFlowServer,
} from "./mfa-test-support.js";

/** RFC 6238 (SHA-1, 6 digits, 30 s), computed here from the base32 secret, independent of the server. */
function authenticator(base32: string) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of base32.replace(/=+$/, "")) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  return {
    generate({ timestamp = Date.now() }: { timestamp?: number } = {}): string {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(BigInt(Math.floor(timestamp / 30_000)));
      const mac = createHmac("sha1", key).update(counter).digest();
      const offset = (mac[19] ?? 0) & 0xf;
      return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
    },
  };
}

// One server: an MFA flow offering OTT and the TOTP plugin factor (one required), admin challenged.
describe("TOTP as a plugin factor: enrol, then sign in with an authenticator code", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startFactorFlowServer({ outbox: file, factors: ["TOTP"], plugins: [totpPlugin] });
  });
  afterAll(() => s.close());

  const enrolUrl = "/api/account/factors/totp";

  it("refuses enrolment without a fresh second factor (step-up), and anonymous callers", async () => {
    const anonymous = new Browser(s.url);
    const csrf0 = await csrfOfSession(anonymous).catch(() => "");
    expect((await anonymous.postJson(enrolUrl, {}, { "x-csrf-token": csrf0 })).status).toBeGreaterThanOrEqual(
      401,
    );
    const b = new Browser(s.url);
    expect((await primaryForm(b, "user", "password", true)).status).toBe(200);
    const csrf = await csrfOfSession(b);
    // The refusal starts a step-up: its code goes to the user.
    const { result: res } = await codeAfter(file, "user", () =>
      b.postJson(enrolUrl, {}, { "x-csrf-token": csrf }),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "MFA_CHALLENGE_REQUIRED", currentState: "OTT_CHALLENGE" });
  });

  it("enrols (unconfirmed never counts), confirms, signs in with TOTP; a wrong code counts, a replay is refused", async () => {
    // Admin signs in with the e-mailed code (TOTP not enrolled yet: only OTT is offered).
    const a = new Browser(s.url);
    const first = await codeAfter(file, "admin", () => primaryForm(a, "admin", "admin", true));
    const started = (await first.result.json()) as { availableFactors: string[] };
    expect(started.availableFactors).toEqual(["OTT"]);
    let csrf = await csrfOfSession(a);
    expect((await verify(a, csrf, first.code)).status).toBe(200);
    csrf = await csrfOfSession(a);

    const enrol = await a.postJson(enrolUrl, {}, { "x-csrf-token": csrf });
    expect(enrol.status).toBe(201);
    const body = (await enrol.json()) as { otpauthUri: string; secret: string; qrCodeSvg: string };
    expect(body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Keyward:admin\?/);
    expect(body.qrCodeSvg).toMatch(/^<svg/);
    const app = authenticator(body.secret);

    // Unconfirmed: the next sign-in still offers only OTT.
    const b = new Browser(s.url);
    const unconfirmed = await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin", true));
    expect(((await unconfirmed.result.json()) as { availableFactors: string[] }).availableFactors).toEqual([
      "OTT",
    ]);

    for (const bad of ["", "12345", "abcdef", 123456, "1".repeat(5000)]) {
      const res = await a.postJson(`${enrolUrl}/confirm`, { code: bad }, { "x-csrf-token": csrf });
      expect(res.status, String(bad).slice(0, 10)).toBe(400);
    }
    const confirmAt = Date.now();
    const confirmCode = app.generate({ timestamp: confirmAt });
    const confirmed = await a.postJson(
      `${enrolUrl}/confirm`,
      { code: confirmCode },
      { "x-csrf-token": csrf },
    );
    expect(confirmed.status).toBe(200);
    expect((await a.postJson(enrolUrl, {}, { "x-csrf-token": csrf })).status).toBe(409);
    // The user is told (a fresh sign-in in other hands could add a lasting factor).
    const notices = () =>
      outbox(file).filter((l) => l.channel === "account-notice" && l.username === "admin");
    await expect.poll(() => notices().length).toBe(1);

    // Sign in again with the authenticator app.
    const c = new Browser(s.url);
    const third = await codeAfter(file, "admin", () => primaryForm(c, "admin", "admin", true));
    expect(((await third.result.json()) as { availableFactors: string[] }).availableFactors).toEqual([
      "OTT",
      "TOTP",
    ]);
    const csrfC = await csrfOfSession(c);
    const selected = await c.postJson(
      "/mfa/select-factor",
      { factorType: "TOTP" },
      { "x-csrf-token": csrfC },
    );
    expect(await selected.json()).toMatchObject({ state: "FACTOR_CHALLENGE", currentFactor: "TOTP" });
    const wrong = await verify(c, csrfC, wrongCode(confirmCode), {}, "/login/mfa-totp");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: "MFA_FACTOR_VERIFICATION_FAILED", attemptsMade: 1 });
    // The confirm spent this step: its code is a replay; the next step's code (drift) verifies.
    expect((await verify(c, csrfC, confirmCode, {}, "/login/mfa-totp")).status).toBe(401);
    const next = app.generate({ timestamp: confirmAt + 30_000 });
    const ok = await verify(c, csrfC, next, {}, "/login/mfa-totp");
    expect(ok.status).toBe(200);
    const me = await c.fetch("/api/me", { headers: { accept: "application/json" } });
    expect(((await me.json()) as { factors: string[] }).factors).toContain("otp");
  });

  it("voids a pending enrolment after five wrong codes (malformed ones do not count)", async () => {
    const a = new Browser(s.url);
    const first = await codeAfter(file, "admin", () => primaryForm(a, "admin", "admin", true));
    let csrf = await csrfOfSession(a);
    expect((await verify(a, csrf, first.code)).status).toBe(200);
    csrf = await csrfOfSession(a);
    const removedBefore = outbox(file).filter((l) => l.channel === "account-notice").length;
    expect((await a.fetch(enrolUrl, { method: "DELETE", headers: { "x-csrf-token": csrf } })).status).toBe(
      204,
    );
    await expect
      .poll(() => outbox(file).filter((l) => l.channel === "account-notice").length)
      .toBe(removedBefore + 1);
    const body = (await (await a.postJson(enrolUrl, {}, { "x-csrf-token": csrf })).json()) as {
      secret: string;
    };
    const app = authenticator(body.secret);
    const now = Date.now();
    const valid = [-30_000, 0, 30_000, 60_000].map((d) => app.generate({ timestamp: now + d }));
    const wrong = ["000000", "111111", "222222", "333333", "444444", "555555", "666666"].filter(
      (c) => !valid.includes(c),
    );
    const confirm = (code: unknown) => a.postJson(`${enrolUrl}/confirm`, { code }, { "x-csrf-token": csrf });
    for (const malformed of ["", "12345", "abcdef", 123456])
      expect((await confirm(malformed)).status).toBe(400);
    for (const code of wrong.slice(0, 4)) expect((await confirm(code)).status).toBe(400);
    const fifth = await confirm(wrong[4]);
    expect(fifth.status).toBe(429);
    expect(await fifth.json()).toMatchObject({ code: "TOO_MANY_ATTEMPTS" });
    // The secret is gone: even its right code finds nothing to confirm.
    expect((await confirm(app.generate({ timestamp: Date.now() }))).status).toBe(409);
  });
});
