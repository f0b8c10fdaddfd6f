import { describe, expect, it } from "vitest";
import { isExecutable } from "./policy.js";
import { BOB, generated, manual, ROOT, setup } from "./policy.fixture.js";

describe("PolicyAdministrationService: create", () => {
  it("stores a MANUAL policy as NOT_REQUIRED and active, audits it and tells the listeners", async () => {
    const { service, repository, audited, changes } = setup();
    const created = await service.create(manual(), ROOT);
    expect(created).toMatchObject({
      name: "Admin area",
      source: "MANUAL",
      approvalStatus: "NOT_REQUIRED",
      isActive: true,
      version: 1,
    });
    expect(isExecutable(created)).toBe(true);
    expect(await repository.findById(created.id)).toEqual(created);
    expect(audited()).toEqual([
      {
        type: "policy.created",
        at: expect.any(Number),
        outcome: "success",
        principal: "root",
        data: { policyId: created.id, name: "Admin area" },
      },
    ]);
    expect(changes).toEqual([{ type: "policy.created", policyId: created.id }]);
  });

  it("stores an IMPORTED policy as NOT_REQUIRED: importing is itself the administrator's act", async () => {
    const { service } = setup();
    const imported = await service.create(manual({ source: "IMPORTED", aiModel: "model-y" }), ROOT);
    expect(imported.approvalStatus).toBe("NOT_REQUIRED");
    expect(isExecutable(imported)).toBe(true);
  });

  it("stores AI_GENERATED and AI_EVOLVED policies as PENDING, not executable", async () => {
    const { service } = setup();
    for (const source of ["AI_GENERATED", "AI_EVOLVED"] as const) {
      const created = await service.create(generated({ source }), ROOT);
      expect(created).toMatchObject({ approvalStatus: "PENDING", isActive: true, confidenceScore: 0.92 });
      expect(isExecutable(created)).toBe(false);
    }
  });
});

describe("PolicyAdministrationService: approval", () => {
  it("approves a PENDING policy into enforcement", async () => {
    const { service, audited, changes } = setup();
    const pending = await service.create(generated(), ROOT);
    const approved = await service.approve(pending.id, ROOT);
    expect(approved).toMatchObject({ approvalStatus: "APPROVED", version: 2 });
    expect(isExecutable(approved)).toBe(true);
    expect(audited().at(-1)).toMatchObject({
      type: "policy.approved",
      principal: "root",
      data: { policyId: pending.id, name: "Orders by managers" },
    });
    expect(changes.at(-1)).toEqual({ type: "policy.approved", policyId: pending.id });
  });

  it("rejects a PENDING policy: recorded, deactivated, reason audited, and it cannot be activated", async () => {
    const { service, repository, audited } = setup();
    const pending = await service.create(generated(), ROOT);
    const rejected = await service.reject(pending.id, ROOT, "too broad");
    expect(rejected).toMatchObject({ approvalStatus: "REJECTED", isActive: false });
    expect(await repository.findById(pending.id)).toEqual(rejected);
    expect(audited().at(-1)).toMatchObject({
      type: "policy.rejected",
      data: { policyId: pending.id, name: "Orders by managers", reason: "too broad" },
    });
    await expect(service.activate(pending.id, ROOT)).rejects.toMatchObject({
      code: "ILLEGAL_STATE_TRANSITION",
    });
    expect(await repository.findById(pending.id)).toEqual(rejected);
  });

  it("approves and rejects only from PENDING", async () => {
    const { service } = setup();
    const manualPolicy = await service.create(manual(), ROOT);
    const approved = await service.approve((await service.create(generated(), ROOT)).id, ROOT);
    const rejected = await service.reject((await service.create(generated(), ROOT)).id, ROOT);
    for (const p of [manualPolicy, approved, rejected]) {
      await expect(service.approve(p.id, ROOT)).rejects.toMatchObject({ code: "ILLEGAL_STATE_TRANSITION" });
      await expect(service.reject(p.id, ROOT)).rejects.toMatchObject({
        code: "ILLEGAL_STATE_TRANSITION",
        details: { approvalStatus: p.approvalStatus },
      });
    }
  });

  it("lets exactly one of a concurrent approval and rejection win", async () => {
    const { service, repository } = setup();
    const pending = await service.create(generated(), ROOT);
    const results = await Promise.allSettled([
      service.approve(pending.id, ROOT),
      service.reject(pending.id, ROOT),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected");
    expect(lost?.status === "rejected" && lost.reason).toMatchObject({ code: "ILLEGAL_STATE_TRANSITION" });
    expect((await repository.findById(pending.id))?.version).toBe(2);
  });

  it("answers NOT_FOUND for an unknown id", async () => {
    const { service } = setup();
    for (const op of ["approve", "reject", "activate", "deactivate", "delete", "get"] as const) {
      await expect(service[op]("nope", ROOT)).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
  });
});

describe("PolicyAdministrationService: update", () => {
  it("applies changes by compare-and-set and audits the changed field names only", async () => {
    const { service, audited, changes } = setup();
    const created = await service.create(manual(), ROOT);
    const updated = await service.update(created.id, 1, { priority: 3, description: "new" }, ROOT);
    expect(updated).toMatchObject({
      priority: 3,
      description: "new",
      version: 2,
      approvalStatus: "NOT_REQUIRED",
    });
    expect(audited().at(-1)).toMatchObject({
      type: "policy.updated",
      data: { policyId: created.id, name: "Admin area", fields: ["description", "priority"] },
    });
    expect(changes.at(-1)).toEqual({ type: "policy.updated", policyId: created.id });
  });

  it("refuses a stale version with CONFLICT and stores nothing", async () => {
    const { service, repository, changes } = setup();
    const created = await service.create(manual(), ROOT);
    const first = await service.update(created.id, 1, { name: "first" }, ROOT);
    await expect(service.update(created.id, 1, { name: "stale" }, ROOT)).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(await repository.findById(created.id)).toEqual(first);
    expect(changes).toHaveLength(2);
  });

  it("refuses a version that is not a positive integer", async () => {
    const { service } = setup();
    const created = await service.create(manual(), ROOT);
    for (const version of [0, -1, 1.5, Number.NaN]) {
      await expect(service.update(created.id, version, { name: "x" }, ROOT)).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    }
  });

  it("sends an approved AI policy back to PENDING when what it enforces changes", async () => {
    const { service } = setup();
    for (const change of [
      { rules: [{ name: "m", conditions: [{ expression: "hasRole('ADMIN')" }] }] },
      { effect: "DENY" as const },
      { priority: 1 },
      { targets: [{ targetType: "URL" as const, targetIdentifier: "/orders/**" }] },
    ]) {
      const approved = await service.approve((await service.create(generated(), ROOT)).id, ROOT);
      const updated = await service.update(approved.id, approved.version, change, ROOT);
      expect(updated.approvalStatus).toBe("PENDING");
      expect(isExecutable(updated)).toBe(false);
    }
  });

  it("keeps the approval when only labels change or the same rules are sent again", async () => {
    const { service } = setup();
    const approved = await service.approve((await service.create(generated(), ROOT)).id, ROOT);
    const same = generated();
    const updated = await service.update(
      approved.id,
      approved.version,
      {
        name: "Renamed",
        description: "Better words",
        rules: [{ name: "renamed rule", conditions: same.rules![0]!.conditions }],
        targets: same.targets,
        confidenceScore: 0.5,
      },
      ROOT,
    );
    expect(updated).toMatchObject({ name: "Renamed", approvalStatus: "APPROVED" });
  });

  it("resubmits a rejected AI policy as PENDING when its content changes, but not on a rename", async () => {
    const { service } = setup();
    const rejected = await service.reject((await service.create(generated(), ROOT)).id, ROOT);
    const renamed = await service.update(rejected.id, rejected.version, { name: "Still rejected" }, ROOT);
    expect(renamed.approvalStatus).toBe("REJECTED");
    const resubmitted = await service.update(renamed.id, renamed.version, { priority: 99 }, ROOT);
    expect(resubmitted).toMatchObject({ approvalStatus: "PENDING", isActive: false });
    await expect(service.approve(resubmitted.id, ROOT)).resolves.toMatchObject({
      approvalStatus: "APPROVED",
    });
  });

  it("keeps a MANUAL policy NOT_REQUIRED and refuses AI provenance on it", async () => {
    const { service, repository } = setup();
    const created = await service.create(manual(), ROOT);
    const updated = await service.update(created.id, 1, { rules: [] }, ROOT);
    expect(updated.approvalStatus).toBe("NOT_REQUIRED");
    await expect(service.update(created.id, 2, { aiModel: "m" }, ROOT)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: { issues: [{ path: "aiModel", message: "must be null for a MANUAL policy" }] },
    });
    expect(await repository.findById(created.id)).toEqual(updated);
  });
});

describe("PolicyAdministrationService: activate, deactivate, delete, list", () => {
  it("deactivates and activates, idempotently (a no-op writes, audits and reloads nothing)", async () => {
    const { service, audited, changes } = setup();
    const created = await service.create(manual(), ROOT);
    const off = await service.deactivate(created.id, ROOT);
    expect(off).toMatchObject({ isActive: false, version: 2 });
    expect(isExecutable(off)).toBe(false);
    expect(await service.deactivate(created.id, ROOT)).toEqual(off);
    const on = await service.activate(created.id, ROOT);
    expect(on).toMatchObject({ isActive: true, version: 3 });
    expect(await service.activate(created.id, ROOT)).toEqual(on);
    expect(audited().map((e) => e.type)).toEqual([
      "policy.created",
      "policy.deactivated",
      "policy.activated",
    ]);
    expect(changes.map((c) => c.type)).toEqual(["policy.created", "policy.deactivated", "policy.activated"]);
  });

  it("deletes a policy, audits it by name and tells the listeners", async () => {
    const { service, repository, audited, changes } = setup();
    const created = await service.create(manual(), ROOT);
    await service.delete(created.id, ROOT);
    expect(await repository.findById(created.id)).toBeUndefined();
    expect(audited().at(-1)).toMatchObject({
      type: "policy.deleted",
      principal: "root",
      data: { policyId: created.id, name: "Admin area" },
    });
    expect(changes.at(-1)).toEqual({ type: "policy.deleted", policyId: created.id });
    await expect(service.delete(created.id, ROOT)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lists with filters in evaluation order", async () => {
    const { service } = setup();
    await service.create(manual({ priority: 10 }), ROOT);
    await service.create(generated({ priority: 9 }), ROOT);
    await service.create(manual({ name: "Early", priority: 2 }), ROOT);
    expect((await service.list({}, ROOT)).map((p) => p.priority)).toEqual([2, 9, 10]);
    expect((await service.list({ approvalStatus: "PENDING" }, ROOT)).map((p) => p.name)).toEqual([
      "Orders by managers",
    ]);
  });

  it("refuses every operation to a caller without ROLE_ADMIN", async () => {
    const { service } = setup();
    await expect(service.list({}, BOB)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
  });
});
