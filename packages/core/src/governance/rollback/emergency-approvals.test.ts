import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { GOVERNANCE_AUDIT } from "../governance-audit.js";
import { ALICE, BOB, CAROL, governanceHarness, KEY, V19, V20 } from "../governance.fixture.js";

const DAY = 86_400_000;
const stop = {
  promptKey: KEY,
  fromVersion: V20,
  toVersion: V19,
  reason: "it blocks admins",
  emergency: true,
};

async function stopped() {
  const h = governanceHarness();
  await h.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" }, { policySetHash: "b".repeat(64) });
  const e = await h.governance.rollback(stop, ALICE);
  return { h, e };
}

describe("an emergency stop", () => {
  it("acts at once and waits, open in the head, with its deadline and what a REVERT restores", async () => {
    const { h, e } = await stopped();
    expect(e).toMatchObject({
      status: "AWAITING_APPROVAL",
      emergency: true,
      approvalDeadline: h.clock.now() + DAY,
      restore: [
        { promptVersion: V20, status: "ACTIVE" },
        { promptVersion: V19, status: "DEPRECATED" },
      ],
    });
    expect(await h.states()).toEqual({ [V20]: "DEPRECATED", [V19]: "ACTIVE" });
    expect((await h.registry.head("PLATFORM_GLOBAL")).openExecutions.map((x) => x.executionKey)).toEqual([
      e.executionKey,
    ]);
    expect(h.audit.events().at(-1)).toMatchObject({ type: GOVERNANCE_AUDIT.emergencyStopped });
  });

  it("its operator cannot approve it (403, audited); it stays open", async () => {
    const { h, e } = await stopped();
    expect(await codeOf(h.governance.approve(e.executionKey, {}, ALICE))).toBe(
      "APPROVAL_BY_OPERATOR_FORBIDDEN",
    );
    expect(
      await codeOf(h.governance.approve(e.executionKey, { action: "REVERT" }, { username: "alice" })),
    ).toBe("APPROVAL_BY_OPERATOR_FORBIDDEN");
    expect(h.audit.events().at(-1)).toMatchObject({
      type: GOVERNANCE_AUDIT.approvalDenied,
      outcome: "denied",
      principal: "alice",
    });
    expect((await h.registry.head("PLATFORM_GLOBAL")).openExecutions).toHaveLength(1);
  });

  it("another administrator ratifies it: RATIFIED, closed, on both rows; a second answer is 409", async () => {
    const { h, e } = await stopped();
    const ratified = await h.governance.approve(e.executionKey, { rationale: "right call" }, BOB);
    expect(ratified).toMatchObject({ status: "RATIFIED", approvedBy: "bob", approvedAt: h.clock.now() });
    expect((await h.registry.head("PLATFORM_GLOBAL")).openExecutions).toEqual([]);
    expect(await h.states()).toEqual({ [V20]: "DEPRECATED", [V19]: "ACTIVE" });
    expect((await h.row(V20))?.rollbackState?.status).toBe("RATIFIED");
    expect((await h.row(V19))?.rollbackState?.status).toBe("RATIFIED");
    expect(await h.registry.execution(e.executionKey)).toMatchObject({ status: "RATIFIED" });
    expect((await h.governance.history())[0]).toMatchObject({
      kind: "APPROVAL",
      actor: "bob",
      executionKey: e.executionKey,
    });
    expect(await codeOf(h.governance.approve(e.executionKey, {}, CAROL))).toBe("ROLLBACK_EXECUTION_NOT_OPEN");
  });

  it("REVERT puts the source back and the target in the state it had", async () => {
    const { h, e } = await stopped();
    const reverted = await h.governance.approve(
      e.executionKey,
      { action: "REVERT", rationale: "false alarm" },
      BOB,
    );
    expect(reverted.status).toBe("REVERTED");
    expect(await h.states()).toEqual({ [V20]: "ACTIVE", [V19]: "DEPRECATED" });
    expect((await h.row(V20))?.approval).toMatchObject({ by: "bob", rationale: "false alarm" });
    expect(h.audit.events().at(-1)).toMatchObject({
      type: GOVERNANCE_AUDIT.emergencyReverted,
      principal: "bob",
    });
  });

  it("REVERT leaves a row someone moved since in its new state", async () => {
    const { h, e } = await stopped();
    expect(
      (
        await h.governance.transition(
          { promptKey: KEY, promptVersion: V20, targetReleaseStatus: "RETIRED", rationale: "gone" },
          CAROL,
        )
      ).outcome,
    ).toBe("APPLIED");
    await h.governance.approve(e.executionKey, { action: "REVERT" }, BOB);
    expect(await h.states()).toEqual({ [V20]: "RETIRED", [V19]: "DEPRECATED" });
  });

  it("answers 404 for an unknown key, 409 for a plain rollback, 400 for an unknown action", async () => {
    const { h } = await stopped();
    expect(await codeOf(h.governance.approve("RBX-nope", {}, BOB))).toBe("ROLLBACK_EXECUTION_NOT_FOUND");
    expect(await codeOf(h.governance.approve("x".repeat(500), {}, BOB))).toBe("VALIDATION_FAILED");
    const h2 = governanceHarness();
    await h2.seed({ [V20]: "ACTIVE", [V19]: "DEPRECATED" }, { policySetHash: "b".repeat(64) });
    const plain = await h2.governance.rollback({ ...stop, emergency: false }, ALICE);
    expect(await codeOf(h2.governance.approve(plain.executionKey, {}, BOB))).toBe(
      "ROLLBACK_EXECUTION_NOT_OPEN",
    );
    const open = await h2.governance.rollback({ ...stop, fromVersion: V19, toVersion: V20 }, ALICE);
    expect(open.status).toBe("REFUSED");
    expect(await codeOf(h2.governance.approve(open.executionKey, {}, BOB))).toBe(
      "ROLLBACK_EXECUTION_NOT_OPEN",
    );
    const { h: h3, e } = await stopped();
    expect(await codeOf(h3.governance.approve(e.executionKey, { action: "DELETE" as "REVERT" }, BOB))).toBe(
      "VALIDATION_FAILED",
    );
  });
});

describe("the approval deadline", () => {
  it("past it the stop stays in force, UNRATIFIED and open, recorded and alerted once; another administrator closes it later", async () => {
    const { h, e } = await stopped();
    h.clock.advance(DAY - 1);
    expect(await h.governance.checkDeadlines()).toBe(0);
    h.clock.advance(1);
    expect(await h.governance.checkDeadlines()).toBe(1);
    const head = await h.registry.head("PLATFORM_GLOBAL");
    expect(head.openExecutions).toMatchObject([{ executionKey: e.executionKey, status: "UNRATIFIED" }]);
    expect(await h.states()).toEqual({ [V20]: "DEPRECATED", [V19]: "ACTIVE" });
    expect((await h.row(V19))?.rollbackState?.status).toBe("UNRATIFIED");
    expect((await h.governance.history())[0]).toMatchObject({
      kind: "DEADLINE",
      actor: "system",
      executionKey: e.executionKey,
    });
    expect(h.audit.events().at(-1)).toMatchObject({
      type: GOVERNANCE_AUDIT.emergencyUnratified,
      principal: "system",
    });
    expect(h.alerts).toMatchObject([
      { kind: "EMERGENCY_STOP_UNRATIFIED", executionKey: e.executionKey, operator: "alice" },
    ]);
    h.clock.advance(DAY);
    expect(await h.governance.checkDeadlines()).toBe(0);
    expect(h.alerts).toHaveLength(1);
    expect(await codeOf(h.governance.approve(e.executionKey, {}, ALICE))).toBe(
      "APPROVAL_BY_OPERATOR_FORBIDDEN",
    );
    expect((await h.governance.approve(e.executionKey, {}, CAROL)).status).toBe("RATIFIED");
    expect((await h.registry.head("PLATFORM_GLOBAL")).openExecutions).toEqual([]);
  });
});
