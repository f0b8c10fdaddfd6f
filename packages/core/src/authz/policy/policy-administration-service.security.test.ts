import { describe, expect, it, vi } from "vitest";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import type { Policy } from "./policy.js";
import { BOB, generated, manual, ROOT, setup } from "./policy.fixture.js";
import {
  PolicyAdministrationService,
  type PolicyAdministrationServiceOptions,
} from "./policy-administration-service.js";
import type { PolicyChangeListener } from "./policy-change-listener.js";

/** A service over `base`'s store and audit sink, with real expression tools and `extra` options. */
function serviceWith(
  base: ReturnType<typeof setup>,
  extra: Partial<PolicyAdministrationServiceOptions>,
): PolicyAdministrationService {
  return new PolicyAdministrationService({
    repository: base.repository,
    audit: base.audit,
    logger: { info() {}, warn() {}, error() {} },
    compiler: new ExpressionCompiler(),
    converter: new PolicyExpressionConverter(),
    ...extra,
  });
}

const BROKEN = "hasRole('ADMIN'";

describe("PolicyAdministrationService: expressions are validated before anything is stored", () => {
  it("refuses an invalid condition on create with its rule, condition, position and reason", async () => {
    const { service, repository, audited, changes } = setup();
    const input = manual({
      rules: [
        { name: "ok", conditions: [{ expression: "isAuthenticated()" }] },
        { name: "bad", conditions: [{ expression: "permitAll" }, { expression: BROKEN }] },
      ],
    });
    const error = await service.create(input, ROOT).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "POLICY_EXPRESSION_INVALID",
      details: {
        rule: "bad",
        ruleIndex: 1,
        condition: 1,
        expression: BROKEN,
        position: 15,
        reason: expect.stringContaining("expected"),
      },
    });
    expect(await repository.findAll()).toEqual([]);
    expect(audited()).toEqual([]);
    expect(changes).toEqual([]);
  });

  it("accepts bare authorities, which the converter turns into hasAuthority", async () => {
    const { service } = setup();
    const created = await service.create(
      manual({
        rules: [{ name: "r", conditions: [{ expression: " ROLE_ADMIN " }, { expression: "SCOPE_x:read" }] }],
      }),
      ROOT,
    );
    expect(created.rules[0]?.conditions[0]?.expression).toBe(" ROLE_ADMIN ");
    await expect(
      service.create(manual({ rules: [{ name: "r", conditions: [{ expression: "ROLE ADMIN" }] }] }), ROOT),
    ).rejects.toMatchObject({ code: "POLICY_EXPRESSION_INVALID" });
  });

  it("refuses an invalid condition on update and keeps the stored policy", async () => {
    const { service, repository, changes } = setup();
    const created = await service.create(manual(), ROOT);
    await expect(
      service.update(created.id, 1, { rules: [{ name: "r", conditions: [{ expression: BROKEN }] }] }, ROOT),
    ).rejects.toMatchObject({
      code: "POLICY_EXPRESSION_INVALID",
      details: { rule: "r", ruleIndex: 0, condition: 0 },
    });
    expect(await repository.findById(created.id)).toEqual(created);
    expect(changes).toHaveLength(1);
  });

  it("refuses to approve or activate a stored policy whose expression no longer validates", async () => {
    const { service, repository } = setup();
    const pending = await service.create(generated({ isActive: false }), ROOT);
    const broken = await repository.update(pending.id, 1, {
      rules: [{ name: "r", conditions: [{ expression: BROKEN }] }],
    });
    await expect(service.approve(pending.id, ROOT)).rejects.toMatchObject({
      code: "POLICY_EXPRESSION_INVALID",
    });
    await expect(service.activate(pending.id, ROOT)).rejects.toMatchObject({
      code: "POLICY_EXPRESSION_INVALID",
    });
    expect(await repository.findById(pending.id)).toEqual(broken);
  });

  it("validates the converted expression of each target type the policy has", async () => {
    const convert = vi.fn((_: Pick<Policy, "effect" | "rules">, targetType: string) =>
      targetType === "METHOD" ? "hasRole(" : "permitAll",
    );
    const { service, repository } = setup({ tools: { converter: { convert } } });
    await expect(service.create(manual(), ROOT)).resolves.toMatchObject({ name: "Admin area" });
    expect(convert.mock.calls.map((c) => c[1])).toEqual(["URL"]);
    const both = manual({
      targets: [
        { targetType: "URL", targetIdentifier: "/x" },
        { targetType: "METHOD", targetIdentifier: "a.Svc.m()" },
      ],
    });
    await expect(service.create(both, ROOT)).rejects.toMatchObject({
      code: "POLICY_EXPRESSION_INVALID",
      details: { rule: null, ruleIndex: null, condition: null, targetType: "METHOD", expression: "hasRole(" },
    });
    expect(await repository.findAll()).toHaveLength(1);
  });
});

describe("PolicyAdministrationService: administrators only", () => {
  it("refuses a caller without ROLE_ADMIN before reading anything, audits it, changes nothing", async () => {
    const { service, repository, audited, changes } = setup();
    const existing = await service.create(generated(), ROOT);
    const attempts: [string, () => Promise<unknown>][] = [
      ["create", () => service.create(manual(), BOB)],
      ["update", () => service.update(existing.id, 1, { name: "mine" }, BOB)],
      ["delete", () => service.delete(existing.id, BOB)],
      ["activate", () => service.activate(existing.id, BOB)],
      ["deactivate", () => service.deactivate(existing.id, BOB)],
      ["approve", () => service.approve(existing.id, BOB)],
      ["reject", () => service.reject(existing.id, BOB)],
      ["get", () => service.get(existing.id, BOB)],
      ["list", () => service.list({}, BOB)],
    ];
    for (const [, attempt] of attempts)
      await expect(attempt()).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    expect(await repository.findAll()).toEqual([existing]);
    expect(changes).toHaveLength(1);
    const denied = audited("policy.access-denied");
    expect(denied.map((e) => e.data?.action)).toEqual(attempts.map(([action]) => action));
    expect(denied.every((e) => e.principal === "bob" && e.outcome === "denied")).toBe(true);
  });

  it("does not let a non-admin probe validation: a broken body still answers ACCESS_DENIED", async () => {
    const { service } = setup();
    await expect(service.create({} as never, BOB)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
  });

  it("honours a configured admin authority", async () => {
    const service = serviceWith(setup(), { adminAuthority: "ROLE_MANAGER" });
    await expect(service.create(manual(), BOB)).resolves.toMatchObject({ name: "Admin area" });
    await expect(service.list({}, ROOT)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
  });

  it("refuses a rejection reason that is too long or not a string", async () => {
    const { service, repository } = setup();
    const pending = await service.create(generated(), ROOT);
    for (const reason of ["r".repeat(1_001), 42 as unknown as string]) {
      await expect(service.reject(pending.id, ROOT, reason)).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    }
    expect((await repository.findById(pending.id))?.approvalStatus).toBe("PENDING");
  });
});

describe("PolicyAdministrationService: audit and reload", () => {
  it("never writes a policy body into the audit trail", async () => {
    const { service, audit } = setup();
    const created = await service.create(generated({ description: "SECRET-DESCRIPTION" }), ROOT);
    await service.update(
      created.id,
      1,
      { rules: [{ name: "r", conditions: [{ expression: "hasRole('X9')" }] }] },
      ROOT,
    );
    await service.approve(created.id, ROOT);
    const trail = JSON.stringify(audit.events());
    for (const secret of ["SECRET-DESCRIPTION", "hasRole", "/orders/**", "model-x"]) {
      expect(trail).not.toContain(secret);
    }
  });

  it("keeps the change when a listener fails, logs and audits it, and still tells the others", async () => {
    const calls: string[] = [];
    const failing: PolicyChangeListener = {
      id: "pdp",
      onPoliciesChanged: async () => {
        calls.push("pdp");
        throw new Error("compile failed");
      },
    };
    const other: PolicyChangeListener = { id: "cache", onPoliciesChanged: () => void calls.push("cache") };
    const { service, repository, audited, logged } = setup({ listeners: [failing, other] });
    const created = await service.create(manual(), ROOT);
    expect(await repository.findById(created.id)).toEqual(created);
    expect(calls.sort()).toEqual(["cache", "pdp"]);
    expect(logged).toEqual([
      {
        message: "policy change listener failed",
        fields: {
          listener: "pdp",
          changeType: "policy.created",
          policyId: created.id,
          error: "Error: compile failed",
        },
      },
    ]);
    expect(audited("policy.reload-failed")).toEqual([
      expect.objectContaining({
        outcome: "failure",
        principal: "root",
        data: { policyId: created.id, changeType: "policy.created", listener: "pdp" },
      }),
    ]);
  });

  it("treats listeners that cannot be resolved as none, and logs it", async () => {
    const base = setup();
    const { repository } = base;
    const errors: string[] = [];
    const service = serviceWith(base, {
      logger: { info() {}, warn() {}, error: (m) => void errors.push(m) },
      listeners: () => {
        throw new Error("no registration");
      },
    });
    const created = await service.create(manual(), ROOT);
    expect(await repository.findById(created.id)).toEqual(created);
    expect(errors).toEqual(["policy change listener failed"]);
  });

  it("works without any listener option", async () => {
    const service = serviceWith(setup(), {});
    await expect(service.create(manual(), ROOT)).resolves.toMatchObject({ version: 1 });
  });
});
