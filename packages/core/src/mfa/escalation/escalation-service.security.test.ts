import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { EscalationService } from "./escalation-service.js";
import { ALICE, BOB, bindingCookieOf, exchange, OPS, ROOT, setup, user } from "./escalation.fixture.js";

describe("EscalationService security", () => {
  it("refuses a non-administrator (ACCESS_DENIED) before saying whether the id exists", async () => {
    const { service, openForAlice, audit } = setup();
    const { escalation } = await openForAlice();
    await expect(service.approve(escalation.id, BOB)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    await expect(service.reject(escalation.id, BOB)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    await expect(service.approve("nope", BOB)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    expect(audit.events().filter((e) => e.type === "auth.mfa.escalation-denied")).toHaveLength(3);
  });

  it("refuses an administrator deciding their own escalated login", async () => {
    const { service } = setup();
    const held = await service.open(exchange(), ROOT, "mfa_admin", "new device");
    for (const decide of [service.approve.bind(service), service.reject.bind(service)]) {
      await expect(decide(held.id, ROOT)).rejects.toMatchObject({
        code: "ACCESS_DENIED",
        message: "Nobody may approve or reject their own escalated login",
      });
    }
    // Another account of the same user id (say, re-issued authorities) is the same person.
    const sameUser = user(ROOT.userId, "root-alias", ["ROLE_ADMIN"]);
    await expect(service.approve(held.id, sameUser)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    expect(await service.approve(held.id, OPS)).toMatchObject({ status: "APPROVED", decidedBy: "ops" });
  });

  it("lets exactly one of two administrators deciding at once win", async () => {
    const { service, openForAlice, published } = setup();
    const { escalation, cookie } = await openForAlice();
    const results = await Promise.allSettled([
      service.approve(escalation.id, ROOT),
      service.reject(escalation.id, OPS),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected");
    expect(isPlatformError(lost?.reason) && lost.reason.code).toBe("ILLEGAL_STATE_TRANSITION");
    // Both read PENDING; the store's compare-and-set, not the status check, turned the loser away.
    expect(isPlatformError(lost?.reason) && (lost.reason.cause as { code?: string }).code).toBe("CONFLICT");
    const winner = won[0]?.status === "fulfilled" ? won[0].value : undefined;
    const polled = await service.poll(exchange({ cookie }));
    expect(polled.escalation.decidedBy).toBe(winner?.decidedBy);
    expect(published.filter((e) => e.type !== "mfa.escalation.opened")).toHaveLength(1);
  });

  it("refuses a poll without a cookie, with another escalation's cookie or with a forged secret", async () => {
    const { service, openForAlice, audit } = setup();
    const mine = await openForAlice();
    const theirs = await openForAlice();
    await service.approve(mine.escalation.id, ROOT);
    const [, theirSecret] = theirs.cookie.split(".");
    const attempts = [
      undefined,
      "PLATFORM_ESCALATION=garbage",
      `PLATFORM_ESCALATION=${mine.escalation.id}`,
      `PLATFORM_ESCALATION=${mine.escalation.id}.${theirSecret}`,
      `PLATFORM_ESCALATION=${mine.escalation.id}.forged-secret`,
      `PLATFORM_ESCALATION=unknown-id.${theirSecret}`,
    ];
    for (const cookie of attempts) {
      await expect(service.poll(exchange({ cookie }))).rejects.toMatchObject({
        code: "MFA_SESSION_REQUIRED",
      });
    }
    expect(audit.events().filter((e) => e.type === "auth.mfa.escalation-binding-invalid")).toHaveLength(2);
    // The rightful client still completes: refused attempts consumed nothing.
    expect((await service.poll(exchange({ cookie: mine.cookie }))).completed).toBe(true);
  });

  it("ends a held escalation at logout: no approval or poll completes it, from any copy of the cookie", async () => {
    const { service, openForAlice, audit } = setup();
    const pending = await openForAlice();
    const approved = await openForAlice();
    await service.approve(approved.escalation.id, ROOT);
    for (const held of [pending, approved]) {
      const logout = exchange({ method: "POST", url: "/logout", cookie: held.cookie });
      await service.cancel(logout);
      expect(logout.response.cookies).toContainEqual(
        expect.objectContaining({ name: "PLATFORM_ESCALATION", value: "", maxAge: 0 }),
      );
      const copy = await service.poll(exchange({ cookie: held.cookie }));
      expect(copy).toMatchObject({ completed: false, escalation: { status: "EXPIRED" } });
    }
    await expect(service.approve(pending.escalation.id, OPS)).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
    });
    expect(await service.listPending(ROOT)).toEqual([]);
    expect(audit.events().filter((e) => e.type === "auth.mfa.escalation-cancelled")).toHaveLength(2);
  });

  it("ends nothing at logout without a cookie carrying the escalation's secret", async () => {
    const { service, openForAlice } = setup();
    const { escalation, cookie } = await openForAlice();
    await service.cancel(exchange({ cookie: `PLATFORM_ESCALATION=${escalation.id}.forged-secret` }));
    await service.cancel(exchange());
    await service.approve(escalation.id, ROOT);
    expect((await service.poll(exchange({ cookie }))).completed).toBe(true);
  });

  it("never completes a pending or rejected escalation, whoever polls", async () => {
    const { service, openForAlice } = setup();
    const { escalation, cookie } = await openForAlice();
    expect((await service.poll(exchange({ cookie, as: ROOT }))).completed).toBe(false);
    await service.reject(escalation.id, ROOT);
    expect((await service.poll(exchange({ cookie }))).completed).toBe(false);
    await expect(service.approve(escalation.id, OPS)).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
    });
    expect(ALICE.authorities).toEqual(["ROLE_USER"]);
  });
});

// Attack F1 (after issue #12): an escalation approval must never stand in for a floor role's second factor.
describe("EscalationService: the second-factor floor", () => {
  const floored = () => {
    const s = setup();
    const service = new EscalationService({
      store: s.store,
      clock: s.clock,
      ids: new CryptoIdGenerator(),
      audit: s.audit,
      events: s.events,
      secondFactorFloor: ["ROLE_ADMIN"],
    });
    return { ...s, service };
  };
  /** A held escalation of `primary` written to the store directly (as one held before the floor). */
  const stored = async (
    s: ReturnType<typeof floored>,
    primary: Authentication,
    status: "PENDING" | "APPROVED",
  ) => {
    const x = exchange({ method: "POST", url: "/login" });
    const open = await setup().service.hold(x, primary, "mfa", "strict");
    const e = await s.store.create({
      ...open.escalation,
      status,
      ...(status === "APPROVED" ? { decidedBy: "ops" } : {}),
    });
    return { escalation: e, cookie: bindingCookieOf(x) };
  };

  it("never holds a floor-role sign-in that proved the password only", async () => {
    const { service, store } = floored();
    await expect(service.hold(exchange(), ROOT, "mfa", "strict")).rejects.toMatchObject({
      code: "AUTHENTICATION_BLOCKED",
    });
    expect(await store.listPending()).toEqual([]);
    // A non-floor user is held as before.
    await expect(service.hold(exchange(), ALICE, "mfa", "strict")).resolves.toMatchObject({
      escalation: { status: "PENDING" },
    });
  });

  it("refuses to approve a password-only floor-role escalation (audited), but lets it be rejected", async () => {
    const s = floored();
    const { escalation } = await stored(s, ROOT, "PENDING");
    await expect(s.service.approve(escalation.id, OPS)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    expect(s.audit.events().find((e) => e.type === "auth.mfa.escalation-denied")?.data).toMatchObject({
      reason: "second-factor-missing",
    });
    expect(await s.service.reject(escalation.id, OPS)).toMatchObject({ status: "REJECTED" });
  });

  it("never completes an approved password-only floor-role escalation (held before the floor)", async () => {
    const s = floored();
    const { escalation, cookie } = await stored(s, ROOT, "APPROVED");
    await expect(s.service.poll(exchange({ cookie }))).rejects.toMatchObject({
      code: "AUTHENTICATION_BLOCKED",
    });
    expect((await s.store.find(escalation.id))?.status).toBe("APPROVED");
  });

  it("approves and completes a floor-role escalation that proved a second factor", async () => {
    const s = floored();
    const withCode: Authentication = { ...ROOT, factors: [...ROOT.factors, { type: "otp", at: 1 }] };
    const { escalation, cookie } = await stored(s, withCode, "PENDING");
    expect(await s.service.approve(escalation.id, OPS)).toMatchObject({ status: "APPROVED" });
    expect(await s.service.poll(exchange({ cookie }))).toMatchObject({ completed: true });
  });
});
