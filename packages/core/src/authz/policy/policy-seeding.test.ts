import { describe, expect, it } from "vitest";
import { BOB, manual, setup } from "./policy.fixture.js";
import { seedMissingPolicies } from "./policy-seeding.js";

describe("PolicyAdministrationService: seeding from code as a system actor", () => {
  it("creates the missing policies under `system:<name>`, audited, and only once", async () => {
    const { service, audited, changes } = setup();
    const seeder = service.systemActor("host-seed");
    expect(seeder).toMatchObject({ userId: "system", username: "system:host-seed" });
    const policies = [manual(), manual({ name: "Reports", priority: 30 })];
    expect(await service.seedMissing(policies, seeder)).toEqual(["Admin area", "Reports"]);
    expect(await service.seedMissing(policies, seeder)).toEqual([]);
    const stored = await service.list({}, seeder);
    expect(stored.map((p) => p.name).sort()).toEqual(["Admin area", "Reports"]);
    expect(audited().filter((e) => e.type === "policy.created")).toEqual([
      expect.objectContaining({ principal: "system:host-seed" }),
      expect.objectContaining({ principal: "system:host-seed" }),
    ]);
    expect(changes).toHaveLength(2);
  });

  it("brings back a seeded policy an administrator deleted, and leaves a changed one alone", async () => {
    const { service } = setup();
    const seeder = service.systemActor("host-seed");
    await service.seedMissing([manual(), manual({ name: "Reports" })], seeder);
    const [admin, reports] = await service.list({}, seeder);
    await service.delete(reports!.id, seeder);
    await service.update(admin!.id, admin!.version, { description: "changed by an administrator" }, seeder);
    expect(await service.seedMissing([manual(), manual({ name: "Reports" })], seeder)).toEqual(["Reports"]);
    expect((await service.get(admin!.id, seeder)).description).toBe("changed by an administrator");
  });

  it("keeps the earliest of twins that instances starting together both created", async () => {
    const { service, clock } = setup();
    const seeder = service.systemActor("host-seed");
    const first = await service.create(manual(), seeder); // another instance's, a moment earlier
    clock.advance(1);
    // This instance listed before the other created it, so it creates a twin, then removes its own.
    let lists = 0;
    const pap = {
      list: async (f: Record<string, never>, a: typeof seeder) => (lists++ === 0 ? [] : service.list(f, a)),
      create: service.create.bind(service),
      delete: service.delete.bind(service),
    };
    expect(await seedMissingPolicies(pap, [manual()], seeder)).toEqual(["Admin area"]);
    expect((await service.list({}, seeder)).map((p) => p.id)).toEqual([first.id]);
  });

  it("refuses a hostile or malformed actor name, and the PAP still refuses a user without the authority", async () => {
    const { service } = setup();
    for (const name of ["", "-x", "Host", "a b", "x".repeat(65), "sys\ntem", "a:b", 42 as unknown as string])
      expect(() => service.systemActor(name), String(name)).toThrow(
        expect.objectContaining({ code: "VALIDATION_FAILED" }),
      );
    await expect(service.seedMissing([manual()], BOB)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
  });
});
