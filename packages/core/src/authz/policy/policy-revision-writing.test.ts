import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { BOB, generated, manual, ROOT, setup } from "./policy.fixture.js";
import type { PolicyRevisionRepository } from "./policy-revision-repository.js";

describe("PolicyAdministrationService: the history it writes", () => {
  it("appends one revision per applied change: create, update, deactivate, activate, delete", async () => {
    const { service, revisions, clock } = setup();
    const created = await service.create(manual(), ROOT);
    clock.advance(1_000);
    const updated = await service.update(created.id, 1, { priority: 20, name: "Admin area" }, ROOT);
    await service.deactivate(created.id, ROOT);
    await service.activate(created.id, ROOT);
    clock.advance(1_000);
    await service.delete(created.id, ROOT);
    const history = await revisions.listFor(created.id);
    expect(history.map((r) => [r.action, r.policyVersion, r.changedFields])).toEqual([
      ["DELETED", 4, []],
      ["ACTIVATED", 4, ["isActive"]],
      ["DEACTIVATED", 3, ["isActive"]],
      // The name was sent unchanged: only what the change altered is listed.
      ["UPDATED", 2, ["priority"]],
      [
        "CREATED",
        1,
        [
          "aiModel",
          "approvalStatus",
          "confidenceScore",
          "description",
          "effect",
          "isActive",
          "name",
          "priority",
          "rules",
          "source",
          "targets",
        ],
      ],
    ]);
    expect(history.every((r) => r.actor === "root")).toBe(true);
    expect(history.at(-1)).toMatchObject({ at: clock.now() - 2_000, snapshot: created });
    expect(history[3]?.snapshot).toEqual(updated);
    // A delete keeps the policy as it stood before it.
    expect(history[0]?.snapshot).toMatchObject({ id: created.id, isActive: true, version: 4 });
  });

  it("records an approval, and a rejection with its reason", async () => {
    const { service, revisions } = setup();
    const a = await service.create(generated(), ROOT);
    const b = await service.create(generated({ name: "Other" }), ROOT);
    await service.approve(a.id, ROOT);
    await service.reject(b.id, ROOT, "too broad");
    expect((await revisions.listFor(a.id))[0]).toMatchObject({
      action: "APPROVED",
      changedFields: ["approvalStatus"],
      snapshot: { approvalStatus: "APPROVED" },
    });
    const [rejected] = await revisions.listFor(b.id);
    expect(rejected).toMatchObject({
      action: "REJECTED",
      changedFields: ["approvalStatus", "isActive"],
      reason: "too broad",
    });
    await service.create(generated({ name: "Third" }), ROOT).then((c) => service.reject(c.id, ROOT));
    const third = (await service.list({ text: "Third" }, ROOT))[0]!;
    expect((await revisions.listFor(third.id))[0]).not.toHaveProperty("reason");
  });

  it("writes nothing for a refused, failed or idempotent change", async () => {
    const { service, revisions } = setup();
    const created = await service.create(manual(), ROOT);
    const before = await revisions.listFor(created.id);
    const refused: [Promise<unknown>, string][] = [
      [service.update(created.id, 1, { priority: 1 }, BOB), "ACCESS_DENIED"],
      [service.update(created.id, 9, { priority: 1 }, ROOT), "CONFLICT"],
      [
        service.update(
          created.id,
          1,
          { rules: [{ name: "r", conditions: [{ expression: "hasRole(" }] }] },
          ROOT,
        ),
        "POLICY_EXPRESSION_INVALID",
      ],
      [service.approve(created.id, ROOT), "ILLEGAL_STATE_TRANSITION"],
      [service.reject(created.id, ROOT, "x"), "ILLEGAL_STATE_TRANSITION"],
      [service.delete(created.id, BOB), "ACCESS_DENIED"],
      [service.delete("unknown", ROOT), "NOT_FOUND"],
    ];
    for (const [attempt, code] of refused) expect(await codeOf(attempt)).toBe(code);
    await service.activate(created.id, ROOT);
    expect(await revisions.listFor(created.id)).toEqual(before);
    expect(await codeOf(service.create(manual({ name: "" }), ROOT))).toBe("VALIDATION_FAILED");
  });

  it("a history store that fails is logged and audited; the change stands", async () => {
    const { service, repository, audited, logged } = setup();
    const failing: PolicyRevisionRepository = {
      append: () => Promise.reject(new Error("store down")),
      listFor: async () => [],
    };
    (service as unknown as { o: { revisions: unknown } }).o.revisions = {
      store: failing,
      clock: { now: () => 1 },
    };
    const created = await service.create(manual(), ROOT);
    expect(await repository.findById(created.id)).toEqual(created);
    expect(audited("policy.revision-failed")).toEqual([
      expect.objectContaining({
        outcome: "failure",
        principal: "root",
        data: { policyId: created.id, action: "CREATED" },
      }),
    ]);
    expect(logged.map((l) => l.message)).toEqual(["policy revision not written"]);
  });
});
