import { describe, expect, it } from "vitest";
import { codeOf } from "../kernel/error-code.test-support.js";
import { BOB, ROOT } from "../authz/policy/policy.fixture.js";
import { resourcesSetup, targeting, urlResource } from "./resources.fixture.js";

describe("ManagedResourceService: the lifecycle table", () => {
  it("defines a NEEDS_DEFINITION resource: a permission created and linked, names entered kept, audited", async () => {
    const { service, seed, audited } = resourcesSetup();
    const r = await seed(urlResource("/api/orders", "GET", { friendlyName: "List orders" }));
    const { resource } = await service.define(r.id, { description: "Every order of the shop" }, ROOT);
    expect(resource).toMatchObject({
      status: "PERMISSION_CREATED",
      friendlyName: "List orders",
      description: "Every order of the shop",
      editedFields: ["description"],
      permission: { name: "List orders", description: "Every order of the shop", createdBy: "root" },
      version: 2,
    });
    expect(audited()).toEqual([
      expect.objectContaining({
        type: "resource.defined",
        principal: "root",
        data: expect.objectContaining({
          resourceId: r.id,
          from: "NEEDS_DEFINITION",
          to: "PERMISSION_CREATED",
        }),
      }),
    ]);
  });

  it("excludes and restores, each audited; restore brings it back to NEEDS_DEFINITION", async () => {
    const { service, seed, audited } = resourcesSetup();
    const r = await seed(urlResource("/api/orders"));
    expect((await service.exclude(r.id, ROOT)).resource.status).toBe("EXCLUDED");
    expect((await service.restore(r.id, ROOT)).resource.status).toBe("NEEDS_DEFINITION");
    expect(audited().map((e) => e.type)).toEqual(["resource.excluded", "resource.restored"]);
  });

  it.each([
    ["define", "EXCLUDED"],
    ["define", "PERMISSION_CREATED"],
    ["define", "POLICY_CONNECTED"],
    ["exclude", "EXCLUDED"],
    ["exclude", "PERMISSION_CREATED"],
    ["exclude", "POLICY_CONNECTED"],
    ["restore", "NEEDS_DEFINITION"],
    ["restore", "PERMISSION_CREATED"],
    ["restore", "POLICY_CONNECTED"],
  ] as const)(
    "refuses %s from %s with ILLEGAL_STATE_TRANSITION and changes nothing",
    async (action, from) => {
      const { service, seed, repository, audited } = resourcesSetup();
      const r = await seed(urlResource("/api/orders", "GET", { status: from }));
      const run = action === "define" ? service.define(r.id, {}, ROOT) : service[action](r.id, ROOT);
      expect(await codeOf(run)).toBe("ILLEGAL_STATE_TRANSITION");
      expect(await repository.findById(r.id)).toEqual(r);
      expect(audited()).toEqual([]);
    },
  );

  it("lets one of two administrators defining at once win; the other gets CONFLICT", async () => {
    const { service, seed, repository } = resourcesSetup();
    const r = await seed(urlResource("/api/orders"));
    const results = await Promise.allSettled([
      service.define(r.id, { friendlyName: "A" }, ROOT),
      service.define(r.id, { friendlyName: "B" }, ROOT),
    ]);
    expect(results.map((x) => x.status).sort()).toEqual(["fulfilled", "rejected"]);
    const lost = results.find((x) => x.status === "rejected") as PromiseRejectedResult;
    expect(await codeOf(Promise.reject(lost.reason))).toBe("CONFLICT");
    expect((await repository.findById(r.id))?.version).toBe(2);
  });

  it("refuses a define against a version the administrator did not see (CONFLICT), and an unknown id (NOT_FOUND)", async () => {
    const { service, seed } = resourcesSetup();
    const r = await seed(urlResource("/api/orders"));
    expect(await codeOf(service.define(r.id, { version: 7 }, ROOT))).toBe("CONFLICT");
    expect(await codeOf(service.exclude("nope", ROOT))).toBe("NOT_FOUND");
  });

  it("refuses non-administrators (ACCESS_DENIED, audited) before reading anything", async () => {
    const { service, seed, audited, status } = resourcesSetup();
    const r = await seed(urlResource("/api/orders"));
    for (const run of [
      () => service.define(r.id, {}, BOB),
      () => service.exclude(r.id, BOB),
      () => service.get(r.id, BOB),
      () => service.list({}, {}, BOB),
    ]) {
      expect(await codeOf(run())).toBe("ACCESS_DENIED");
    }
    expect(await status(r.id)).toBe("NEEDS_DEFINITION");
    expect(audited().map((e) => e.type)).toEqual(Array(4).fill("resource.access-denied"));
  });
});

describe("ManagedResourceService: connections follow the policies", () => {
  it("connects a defined resource when a manual policy targets it, and falls back when it is deleted", async () => {
    const { service, pap, seed, status, audited } = resourcesSetup();
    const r = await seed(urlResource("/api/orders/{id}", "DELETE"));
    await service.define(r.id, {}, ROOT);
    const policy = await pap.create(targeting("/api/orders/{orderId}", "DELETE"), ROOT);
    expect(await status(r.id)).toBe("POLICY_CONNECTED");
    const detail = await service.get(r.id, ROOT);
    expect(detail.connected.map((l) => l.policyId)).toEqual([policy.id]);
    await pap.delete(policy.id, ROOT);
    expect(await status(r.id)).toBe("PERMISSION_CREATED");
    expect(audited().map((e) => [e.type, e.principal])).toEqual([
      ["resource.defined", "root"],
      ["resource.connected", "system"],
      ["resource.disconnected", "system"],
    ]);
  });

  it("connects an AI policy's resource only once it is approved, and disconnects on deactivation", async () => {
    const { service, pap, seed, status } = resourcesSetup();
    const r = await seed(urlResource("/api/orders", "GET"));
    await service.define(r.id, {}, ROOT);
    const pending = await pap.create(
      targeting("/api/orders", "GET", { source: "AI_GENERATED", confidenceScore: 0.9, aiModel: "m" }),
      ROOT,
    );
    expect(await status(r.id)).toBe("PERMISSION_CREATED");
    expect((await service.get(r.id, ROOT)).impact.map((l) => l.approvalStatus)).toEqual(["PENDING"]);
    await pap.approve(pending.id, ROOT);
    expect(await status(r.id)).toBe("POLICY_CONNECTED");
    await pap.deactivate(pending.id, ROOT);
    expect(await status(r.id)).toBe("PERMISSION_CREATED");
  });

  it("keeps a resource connected while another policy still references it; an update moving the target moves the connection", async () => {
    const { service, pap, seed, status } = resourcesSetup();
    const a = await seed(urlResource("/api/a", "GET"));
    const b = await seed(urlResource("/api/b", "GET"));
    await service.define(a.id, {}, ROOT);
    await service.define(b.id, {}, ROOT);
    const p1 = await pap.create(targeting("/api/a", "ANY"), ROOT);
    const p2 = await pap.create(targeting("/api/a", "GET"), ROOT);
    await pap.delete(p1.id, ROOT);
    expect(await status(a.id)).toBe("POLICY_CONNECTED");
    await pap.update(
      p2.id,
      p2.version,
      { targets: [{ targetType: "URL", targetIdentifier: "/api/b", httpMethod: "GET" }] },
      ROOT,
    );
    expect([await status(a.id), await status(b.id)]).toEqual(["PERMISSION_CREATED", "POLICY_CONNECTED"]);
  });

  it("never connects a broader pattern, a NEEDS_DEFINITION or an EXCLUDED resource", async () => {
    const { service, pap, seed, status } = resourcesSetup();
    const defined = await seed(urlResource("/api/orders/{id}", "GET"));
    await service.define(defined.id, {}, ROOT);
    const open = await seed(urlResource("/api/open", "GET"));
    const excluded = await seed(urlResource("/api/hidden", "GET", { status: "EXCLUDED" }));
    await pap.create(targeting("/api/**", "ANY"), ROOT);
    await pap.create(targeting("/api/open", "GET"), ROOT);
    await pap.create(targeting("/api/hidden", "GET"), ROOT);
    expect([await status(defined.id), await status(open.id), await status(excluded.id)]).toEqual([
      "PERMISSION_CREATED",
      "NEEDS_DEFINITION",
      "EXCLUDED",
    ]);
    expect((await service.get(defined.id, ROOT)).impact).toEqual([
      expect.objectContaining({ relation: "broader", targetIdentifier: "/api/**" }),
    ]);
  });

  it("defines straight through to POLICY_CONNECTED when a policy already references the resource", async () => {
    const { service, pap, seed, audited } = resourcesSetup();
    const open = await seed(urlResource("/api/open", "GET"));
    await pap.create(targeting("/api/open", "GET"), ROOT);
    const { resource, connected } = await service.define(open.id, {}, ROOT);
    expect(resource.status).toBe("POLICY_CONNECTED");
    expect(connected).toHaveLength(1);
    expect(audited().map((e) => e.type)).toEqual(["resource.defined", "resource.connected"]);
  });
});
