import { describe, expect, it } from "vitest";
import { DEFAULT_ESCALATION_TTL_MS } from "./escalation.js";
import { ESCALATION_BINDING_COOKIE } from "./escalation-caller-binding.js";
import { ALICE, exchange, ROOT, setup } from "./escalation.fixture.js";

describe("EscalationService", () => {
  describe("open", () => {
    it("stores a PENDING escalation bound to the caller by an HttpOnly SameSite=Strict cookie", async () => {
      const { clock, store, openForAlice } = setup();
      const { escalation, opened } = await openForAlice("impossible travel");
      expect(escalation).toMatchObject({
        userId: "u-alice",
        username: "alice",
        primary: ALICE,
        flowTypeName: "mfa",
        reason: "impossible travel",
        status: "PENDING",
        createdAt: clock.now(),
        expiresAt: clock.now() + DEFAULT_ESCALATION_TTL_MS,
        remoteAddress: "203.0.113.7",
        version: 1,
      });
      expect(escalation.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const cookie = opened.response.cookies.find((c) => c.name === ESCALATION_BINDING_COOKIE)!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
      const [id, secret] = cookie.value.split(".");
      expect(id).toBe(escalation.id);
      expect(secret).toBeTruthy();
      // Only the secret's hash is stored.
      expect(JSON.stringify(await store.find(escalation.id))).not.toContain(secret);
      expect(escalation.callerBinding).not.toBe(secret);
    });

    it("publishes mfa.escalation.opened and audits the hold", async () => {
      const { published, audit, openForAlice } = setup();
      const { escalation } = await openForAlice();
      expect(published).toEqual([
        {
          type: "mfa.escalation.opened",
          payload: expect.objectContaining({
            escalationId: escalation.id,
            username: "alice",
            status: "PENDING",
          }),
        },
      ]);
      expect(audit.events().map((e) => e.type)).toEqual(["auth.mfa.escalation-opened"]);
    });
  });

  describe("poll", () => {
    it("answers PENDING until a decision, without completing", async () => {
      const { service, openForAlice } = setup();
      const { escalation, cookie } = await openForAlice();
      const x = exchange({ cookie });
      expect(await service.poll(x)).toEqual({ escalation, completed: false });
      expect(x.response.cookies).toEqual([]);
    });

    it("completes an approved escalation exactly once and clears the cookie", async () => {
      const { service, openForAlice, audit } = setup();
      const { escalation, cookie } = await openForAlice();
      await service.approve(escalation.id, ROOT);
      const first = exchange({ cookie });
      const done = await service.poll(first);
      expect(done.completed).toBe(true);
      expect(done.escalation).toMatchObject({ status: "COMPLETED", decidedBy: "root", primary: ALICE });
      expect(first.response.cookies).toEqual([
        expect.objectContaining({ name: "PLATFORM_ESCALATION", maxAge: 0 }),
      ]);
      const again = await service.poll(exchange({ cookie }));
      expect(again).toMatchObject({ completed: false, escalation: { status: "COMPLETED" } });
      expect(audit.events().filter((e) => e.type === "auth.mfa.escalation-completed")).toHaveLength(1);
    });

    it("lets exactly one of two concurrent polls of an approval complete it", async () => {
      const { service, openForAlice } = setup();
      const { escalation, cookie } = await openForAlice();
      await service.approve(escalation.id, ROOT);
      const polls = await Promise.all([1, 2, 3].map(() => service.poll(exchange({ cookie }))));
      expect(polls.filter((p) => p.completed)).toHaveLength(1);
      expect(polls.every((p) => p.escalation.status === "COMPLETED")).toBe(true);
    });

    it("answers REJECTED after a rejection", async () => {
      const { service, openForAlice } = setup();
      const { escalation, cookie } = await openForAlice();
      await service.reject(escalation.id, ROOT);
      expect(await service.poll(exchange({ cookie }))).toMatchObject({
        completed: false,
        escalation: { status: "REJECTED", decidedBy: "root" },
      });
    });

    it("answers EXPIRED once the ttl passed undecided, and an approval cannot come later", async () => {
      const { clock, service, openForAlice } = setup(60_000);
      const { escalation, cookie } = await openForAlice();
      clock.advance(59_999);
      expect((await service.poll(exchange({ cookie }))).escalation.status).toBe("PENDING");
      clock.advance(1);
      expect((await service.poll(exchange({ cookie }))).escalation.status).toBe("EXPIRED");
      await expect(service.approve(escalation.id, ROOT)).rejects.toMatchObject({
        code: "ILLEGAL_STATE_TRANSITION",
        details: { status: "EXPIRED" },
      });
    });

    it("expires an approval nobody claimed in time", async () => {
      const { clock, service, openForAlice } = setup(60_000);
      const { escalation, cookie } = await openForAlice();
      await service.approve(escalation.id, ROOT);
      clock.advance(60_000);
      expect(await service.poll(exchange({ cookie }))).toMatchObject({
        completed: false,
        escalation: { status: "EXPIRED" },
      });
    });
  });

  describe("approve and reject", () => {
    it("records the decision, audits it and publishes it", async () => {
      const { clock, service, openForAlice, audit, published } = setup();
      const a = await openForAlice();
      const b = await openForAlice();
      clock.advance(1_000);
      expect(await service.approve(a.escalation.id, ROOT)).toMatchObject({
        status: "APPROVED",
        decidedBy: "root",
        decidedAt: clock.now(),
        version: 2,
      });
      expect(await service.reject(b.escalation.id, ROOT)).toMatchObject({
        status: "REJECTED",
        decidedBy: "root",
      });
      expect(audit.events().filter((e) => e.principal === "root")).toEqual([
        expect.objectContaining({ type: "auth.mfa.escalation-approved", outcome: "success" }),
        expect.objectContaining({ type: "auth.mfa.escalation-rejected", outcome: "success" }),
      ]);
      expect(published.map((e) => e.type)).toEqual([
        "mfa.escalation.opened",
        "mfa.escalation.opened",
        "mfa.escalation.approved",
        "mfa.escalation.rejected",
      ]);
      expect(published[2]?.payload).toMatchObject({ escalationId: a.escalation.id, decidedBy: "root" });
    });

    it("refuses to decide twice (409) and an unknown id (404)", async () => {
      const { service, openForAlice } = setup();
      const { escalation } = await openForAlice();
      await service.reject(escalation.id, ROOT);
      await expect(service.approve(escalation.id, ROOT)).rejects.toMatchObject({
        code: "ILLEGAL_STATE_TRANSITION",
        details: { status: "REJECTED" },
      });
      await expect(service.reject("nope", ROOT)).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("lists pending escalations for administrators only", async () => {
      const { service, openForAlice } = setup();
      const a = await openForAlice();
      const b = await openForAlice();
      await service.approve(a.escalation.id, ROOT);
      expect((await service.listPending(ROOT)).map((e) => e.id)).toEqual([b.escalation.id]);
      await expect(service.listPending(ALICE)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    });

    it("refuses a non-positive ttl", () => {
      expect(() => setup(0)).toThrow(/ttlMs/);
    });
  });
});
