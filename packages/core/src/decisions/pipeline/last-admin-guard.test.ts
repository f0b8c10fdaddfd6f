import { describe, expect, it } from "vitest";
import { zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import { pipelineFixture, TableDecisionMaker } from "./decision-pipeline.fixture.js";
import { LastAdminGuard } from "./last-admin-guard.js";

const blocking = () => new TableDecisionMaker({ REPEATED_DENIALS: "BLOCK" });

describe("the last active administrator", () => {
  it("is challenged, not blocked, by an AI BLOCK, with an audited alert event", async () => {
    const f = await pipelineFixture({}, blocking());
    const root = await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
    await f.users.create({ username: "retired", authorities: ["ROLE_ADMIN"], enabled: false });
    await f.users.create({ username: "locked", authorities: ["ROLE_ADMIN"], locked: true });
    f.pipeline.submit(f.event("REPEATED_DENIALS", { userId: root.id }));
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
    const f = await pipelineFixture({}, blocking());
    const root = await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
    await f.users.create({ username: "second", authorities: ["ROLE_USER", "ROLE_ADMIN"] });
    f.pipeline.submit(f.event("REPEATED_DENIALS", { userId: root.id }));
    await f.pipeline.idle();
    expect(await f.zeroTrust.get(zeroTrustUserSubject(root.id))).toMatchObject({ action: "BLOCK" });
    expect(f.alerts).toEqual([]);
  });

  it("blocks an ordinary user", async () => {
    const f = await pipelineFixture({}, blocking());
    await f.users.create({ username: "root", authorities: ["ROLE_ADMIN"] });
    f.pipeline.submit(f.event("REPEATED_DENIALS"));
    await f.pipeline.idle();
    expect(await f.zeroTrust.get(zeroTrustUserSubject(f.alice.id))).toMatchObject({ action: "BLOCK" });
  });

  it("pages through the users to find another administrator", async () => {
    const f = await pipelineFixture();
    const root = await f.users.create({ username: "aaa-root", authorities: ["ROLE_ADMIN"] });
    for (let i = 0; i < 520; i++) await f.users.create({ username: `user-${String(i).padStart(4, "0")}` });
    const guard = new LastAdminGuard(f.users);
    expect(await guard.isLastActiveAdmin(root.id)).toBe(true);
    await f.users.create({ username: "zzz-admin", authorities: ["ROLE_ADMIN"] });
    expect(await guard.isLastActiveAdmin(root.id)).toBe(false);
    expect(await guard.isLastActiveAdmin(f.alice.id)).toBe(false);
  });
});
