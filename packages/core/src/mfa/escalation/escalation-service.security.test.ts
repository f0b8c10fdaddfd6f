import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { ALICE, BOB, exchange, OPS, ROOT, setup, user } from "./escalation.fixture.js";

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
