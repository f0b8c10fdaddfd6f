import { describe, expect, it } from "vitest";
import { zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import { pipelineFixture } from "./decision-pipeline.fixture.js";
import { AdministratorGuard } from "../../identity/users/admin/administrator-guard.js";
import { InMemoryDistributedLock } from "../../kernel/coordination/in-memory-distributed-lock.js";
import { zeroTrustAvailabilityCheck } from "../../authz/zerotrust/zero-trust-availability-check.js";

type Fixture = Awaited<ReturnType<typeof pipelineFixture>>;

/**
 * Denials of DELETE on an admin URL from an external address, after an earlier CHALLENGE: the
 * analyst scores them 0.9 (EXTERNAL_NETWORK, ADMIN_ACTION, RESTRICTED_RESOURCE, NEW_ACCOUNT,
 * PRIOR_RISKY_DECISION), a BLOCK.
 */
async function submitRiskyDenials(f: Fixture, userId: string): Promise<void> {
  await f.history.append({
    id: `past-${userId}`,
    at: f.clock.now() - 60_000,
    eventId: "e0",
    eventKind: "SIGN_IN_COMPLETED",
    userId,
    action: "CHALLENGE",
  });
  f.pipeline.submit(
    f.event("REPEATED_DENIALS", {
      userId,
      method: "DELETE",
      target: "/admin/api/users/1",
      detail: { denials: 5 },
    }),
  );
}

describe("the last active administrator", () => {
  it("is challenged, not blocked, by an AI BLOCK, with an audited alert event", async () => {
    const f = await pipelineFixture();
    const root = await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
    await f.users.create({ username: "retired", authorities: ["ROLE_ADMIN"], enabled: false });
    await f.users.create({ username: "locked", authorities: ["ROLE_ADMIN"], locked: true });
    await submitRiskyDenials(f, root.id);
    await f.pipeline.idle();

    expect(await f.zeroTrust.get(zeroTrustUserSubject(root.id))).toMatchObject({ action: "CHALLENGE" });
    expect(f.alerts).toMatchObject([{ payload: { kind: "LAST_ADMIN_BLOCK_PREVENTED", userId: root.id } }]);
    expect(f.auditOf("decision.last-admin.protected")).toMatchObject([
      { principal: "root", data: { decidedAction: "BLOCK", action: "CHALLENGE" } },
    ]);
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({
      action: "CHALLENGE",
      decidedAction: "BLOCK",
    });
    expect((await f.history.recentFor(root.id, 1))[0]).toMatchObject({
      action: "CHALLENGE",
      outcome: "DOWNGRADED",
    });
  });

  it("does not protect an administrator while another active one exists", async () => {
    const f = await pipelineFixture();
    const root = await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
    await f.users.create({ username: "second", authorities: ["ROLE_USER", "ROLE_ADMIN"] });
    await submitRiskyDenials(f, root.id);
    await f.pipeline.idle();
    expect(await f.zeroTrust.get(zeroTrustUserSubject(root.id))).toMatchObject({ action: "BLOCK" });
    expect(f.alerts).toEqual([]);
  });

  it("blocks an ordinary user", async () => {
    const f = await pipelineFixture();
    await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
    await submitRiskyDenials(f, f.alice.id);
    await f.pipeline.idle();
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({ action: "BLOCK" });
  });

  it("challenges the last administrator when the other is under a live BLOCK or ESCALATE (not available)", async () => {
    for (const other of ["BLOCK", "ESCALATE"] as const) {
      const f = await pipelineFixture();
      const root = await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
      const second = await f.users.create({ username: "second", authorities: ["ROLE_ADMIN"] });
      await f.zeroTrust.set(zeroTrustUserSubject(second.id), other, { source: "admin" });
      await submitRiskyDenials(f, root.id);
      await f.pipeline.idle();
      expect(await f.zeroTrust.get(zeroTrustUserSubject(root.id))).toMatchObject({ action: "CHALLENGE" });
      expect(f.alerts).toMatchObject([{ payload: { kind: "LAST_ADMIN_BLOCK_PREVENTED", userId: root.id } }]);
    }
  });

  it("refuses a BLOCK or ESCALATE of the last available administrator from anyone (409 LAST_ADMINISTRATOR)", async () => {
    const f = await pipelineFixture();
    const root = await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
    for (const action of ["BLOCK", "ESCALATE"] as const) {
      await expect(
        f.zeroTrust.set(zeroTrustUserSubject(root.id), action, { source: "admin" }),
      ).rejects.toMatchObject({ code: "LAST_ADMINISTRATOR" });
    }
    expect(await f.zeroTrust.get(zeroTrustUserSubject(root.id))).toBeUndefined();
    // A CHALLENGE does not end availability.
    await f.zeroTrust.set(zeroTrustUserSubject(root.id), "CHALLENGE", { source: "admin" });
  });

  it("lets exactly one of two parallel BLOCKs of the two last administrators through", async () => {
    const f = await pipelineFixture();
    const a = await f.users.create({ username: "a", authorities: ["ROLE_ADMIN"] });
    const b = await f.users.create({ username: "b", authorities: ["ROLE_ADMIN"] });
    const results = await Promise.allSettled([
      f.zeroTrust.set(zeroTrustUserSubject(a.id), "BLOCK", { source: "admin" }),
      f.zeroTrust.set(zeroTrustUserSubject(b.id), "BLOCK", { source: "admin" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: { code: "LAST_ADMINISTRATOR" },
    });
  });

  it("pages through the users to find another administrator", async () => {
    const f = await pipelineFixture();
    const root = await f.users.create({ username: "aaa-root", authorities: ["ROLE_ADMIN"] });
    for (let i = 0; i < 520; i++) await f.users.create({ username: `user-${String(i).padStart(4, "0")}` });
    const guard = new AdministratorGuard({
      users: f.users,
      lock: new InMemoryDistributedLock(f.clock),
      checks: () => [zeroTrustAvailabilityCheck(f.store)],
      owner: () => "test",
    });
    expect(await guard.anotherAvailable(root.id)).toBe(false);
    await f.users.create({ username: "zzz-admin", authorities: ["ROLE_ADMIN"] });
    expect(await guard.anotherAvailable(root.id)).toBe(true);
  });
});
