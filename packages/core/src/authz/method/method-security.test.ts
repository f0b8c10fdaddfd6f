import { DecisionAuditQueue } from "../pdp/decision-audit-queue.js";
import { PolicyAdministrationService } from "../policy/policy-administration-service.js";
import type { InjectionToken } from "tsyringe";
import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { createPlatform } from "../../kernel/platform.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { JsonLogger, Logger } from "../../kernel/logger.js";
import { authzPlugin } from "../authz-plugin.js";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { caller } from "../pdp/pdp.fixture.js";
import { InMemoryPolicyRepository } from "../policy/in-memory-policy-repository.js";
import type { NewPolicy, PolicyEffect } from "../policy/policy.js";
import { DefaultPolicyRetrievalPoint } from "../policy/policy-retrieval-point.js";
import { PolicyMethodAuthorizationManager } from "./policy-method-authorization-manager.js";
import { MethodSecurity } from "./method-security.js";
import { AuthorityPermissionEvaluator } from "./permission-evaluator.js";
import { Protectable } from "./protectable.js";
import { SecurityContextHolder } from "./security-context-holder.js";

interface Order {
  id: string;
  owner: string;
  item: string;
}

class OrderService {
  readonly calls: string[] = [];
  readonly orders = new Map<string, Order>([
    ["1", { id: "1", owner: "alice", item: "tea" }],
    ["2", { id: "2", owner: "id-bob", item: "jam" }],
  ]);
  label = "orders";

  @Protectable({ parameterTypes: ["string"], ownerField: "owner" })
  get(id: string): Order | null {
    this.calls.push(`get:${id}`);
    return this.orders.get(id) ?? null;
  }

  @Protectable({ parameterTypes: ["string"] })
  cancel(id: string): boolean {
    this.calls.push(`cancel:${id}`);
    return this.orders.delete(id);
  }

  @Protectable()
  async purge(): Promise<number> {
    this.calls.push("purge");
    await Promise.resolve();
    const n = this.orders.size;
    this.orders.clear();
    return n;
  }

  @Protectable({ parameterTypes: ["string"], ownerField: "owner" })
  async load(id: string): Promise<Order> {
    this.calls.push(`load:${id}`);
    await Promise.resolve();
    const order = this.orders.get(id);
    if (!order) throw new RangeError(`no order ${id}`);
    return order;
  }

  summary(): string {
    return `${this.label}:${this.orders.size}`;
  }
}

const ALICE = caller("alice", "ROLE_USER");
const BOB = caller("bob", "ROLE_USER");
const ADMIN = caller("root", "ROLE_USER", "ROLE_ADMIN");

function methodPolicy(
  name: string,
  effect: PolicyEffect,
  priority: number,
  identifier: string,
  conditions: string[],
): NewPolicy {
  return {
    name,
    description: "",
    effect,
    priority,
    targets: [
      {
        targetType: "METHOD",
        targetIdentifier: identifier,
        httpMethod: "ANY",
        targetOrder: 0,
        sourceType: "MANUAL",
      },
    ],
    rules: conditions.length
      ? [{ name: "r", conditions: conditions.map((expression) => ({ expression })) }]
      : [],
    source: "MANUAL",
    approvalStatus: "NOT_REQUIRED",
    isActive: true,
    confidenceScore: null,
    aiModel: null,
  };
}

async function setup(policies: NewPolicy[] = []) {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
  const repository = new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() });
  for (const p of policies) await repository.create(p);
  const audit = new InMemoryAuditSink(1_000, clock);
  const manager = new PolicyMethodAuthorizationManager({
    prp: new DefaultPolicyRetrievalPoint({ repository }),
    compiler: new ExpressionCompiler(),
    converter: new PolicyExpressionConverter(),
    permissions: new AuthorityPermissionEvaluator(),
    audit,
    clock,
    timeZone: "UTC",
  });
  await manager.reload();
  const context = new SecurityContextHolder();
  const service = new OrderService();
  const orders = new MethodSecurity(manager, context).protect(service);
  const as = <T>(who: Authentication | undefined, fn: () => T): T => context.run(who, fn);
  return { repository, audit, manager, context, service, orders, as };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isPlatformError(error) ? error.code : `not a PlatformError: ${String(error)}`;
  }
  return undefined;
}

describe("METHOD policies, decided before the call", () => {
  it("allows every caller when no policy targets the method", async () => {
    const { orders, service, as } = await setup();
    expect(as(BOB, () => orders.cancel("1"))).toBe(true);
    expect(as(undefined, () => orders.cancel("2"))).toBe(true);
    expect(service.calls).toEqual(["cancel:1", "cancel:2"]);
  });

  it("never runs a refused method", async () => {
    const { orders, service, as } = await setup([
      methodPolicy("admins cancel", "ALLOW", 10, "OrderService.cancel(string)", ["hasRole('ADMIN')"]),
    ]);
    expect(codeOf(() => as(BOB, () => orders.cancel("1")))).toBe("ACCESS_DENIED");
    expect(service.calls).toEqual([]);
    expect(service.orders.has("1")).toBe(true);
    expect(as(ADMIN, () => orders.cancel("1"))).toBe(true);
    expect(service.calls).toEqual(["cancel:1"]);
  });

  it("applies a DENY policy as !(condition)", async () => {
    const { orders, service, as } = await setup([
      methodPolicy("no interns", "DENY", 10, "OrderService.cancel(string)", ["hasRole('INTERN')"]),
    ]);
    expect(codeOf(() => as(caller("ivy", "ROLE_INTERN"), () => orders.cancel("1")))).toBe("ACCESS_DENIED");
    expect(as(BOB, () => orders.cancel("1"))).toBe(true);
    expect(service.calls).toEqual(["cancel:1"]);
  });

  it("lets the first policy by priority decide, whatever the later ones say", async () => {
    const deny = methodPolicy("deny users", "DENY", 10, "OrderService.cancel(string)", ["hasRole('USER')"]);
    const allow = methodPolicy("allow users", "ALLOW", 20, "OrderService.cancel(string)", [
      "hasRole('USER')",
    ]);
    const denyFirst = await setup([allow, deny]);
    expect(codeOf(() => denyFirst.as(BOB, () => denyFirst.orders.cancel("1")))).toBe("ACCESS_DENIED");
    const allowFirst = await setup([{ ...allow, priority: 5 }, deny]);
    expect(allowFirst.as(BOB, () => allowFirst.orders.cancel("1"))).toBe(true);
  });

  it("matches the identifier exactly and ignores policies that are not executable", async () => {
    const { orders, as } = await setup([
      methodPolicy("other overload", "ALLOW", 1, "OrderService.cancel(number)", ["denyAll"]),
      methodPolicy("other class", "ALLOW", 2, "InvoiceService.cancel(string)", ["denyAll"]),
      {
        ...methodPolicy("inactive", "ALLOW", 3, "OrderService.cancel(string)", ["denyAll"]),
        isActive: false,
      },
      {
        ...methodPolicy("pending", "ALLOW", 4, "OrderService.cancel(string)", ["denyAll"]),
        source: "AI_GENERATED",
        approvalStatus: "PENDING",
      },
    ]);
    expect(as(BOB, () => orders.cancel("1"))).toBe(true);
  });

  it("fails closed on a condition that does not compile", async () => {
    const { orders, service, as } = await setup([
      methodPolicy("broken", "ALLOW", 1, "OrderService.cancel(string)", ["hasRole("]),
    ]);
    expect(codeOf(() => as(ADMIN, () => orders.cancel("1")))).toBe("ACCESS_DENIED");
    expect(service.calls).toEqual([]);
  });

  it("picks up a new METHOD policy on reload, not before", async () => {
    const { repository, manager, orders, as } = await setup();
    await repository.create(
      methodPolicy("admins cancel", "ALLOW", 10, "OrderService.cancel(string)", ["hasRole('ADMIN')"]),
    );
    expect(as(BOB, () => orders.cancel("1"))).toBe(true);
    await manager.reload();
    expect(codeOf(() => as(BOB, () => orders.cancel("2")))).toBe("ACCESS_DENIED");
  });

  it("decides hasPermission through the AuthorityPermissionEvaluator, before the call", async () => {
    const { orders, service, as } = await setup([
      methodPolicy("order readers", "ALLOW", 10, "OrderService.cancel(string)", [
        "hasPermission('order', 'read')",
      ]),
    ]);
    expect(as(caller("reader", "order:read"), () => orders.cancel("1"))).toBe(true);
    expect(as(caller("super", "ORDER:*"), () => orders.cancel("2"))).toBe(true);
    expect(service.calls).toEqual(["cancel:1", "cancel:2"]);
    expect(codeOf(() => as(caller("writer", "order:write"), () => orders.cancel("1")))).toBe("ACCESS_DENIED");
    expect(codeOf(() => as(caller("other", "invoice:*"), () => orders.cancel("1")))).toBe("ACCESS_DENIED");
    expect(service.calls).toEqual(["cancel:1", "cancel:2"]);
  });
});

describe("ownership on the returned entity", () => {
  it("lets the owner read by username or by user id, and refuses others even with no policy", async () => {
    const { orders, as } = await setup();
    expect(as(ALICE, () => orders.get("1"))?.item).toBe("tea");
    expect(as(BOB, () => orders.get("2"))?.item).toBe("jam"); // owner "id-bob" is bob's userId
    expect(codeOf(() => as(BOB, () => orders.get("1")))).toBe("ACCESS_DENIED");
    expect(codeOf(() => as(undefined, () => orders.get("1")))).toBe("AUTHENTICATION_REQUIRED");
  });

  it("lets ROLE_ADMIN read any entity", async () => {
    const { orders, as } = await setup();
    expect(as(ADMIN, () => orders.get("1"))?.owner).toBe("alice");
  });

  it("lets a non-owner read when an ALLOW policy granted explicitly", async () => {
    const { orders, as } = await setup([
      methodPolicy("support reads", "ALLOW", 10, "OrderService.get(string)", ["hasRole('SUPPORT')"]),
    ]);
    expect(as(caller("sam", "ROLE_SUPPORT"), () => orders.get("1"))?.item).toBe("tea");
    expect(codeOf(() => as(BOB, () => orders.get("1")))).toBe("ACCESS_DENIED");
    expect(as(ALICE, () => orders.get("1"))?.item).toBe("tea");
  });

  it("answers a missing entity (null) to anyone: there is nothing to protect", async () => {
    const { orders, as } = await setup();
    expect(as(BOB, () => orders.get("404"))).toBeNull();
  });

  it("decides a policy reading #ownership.isOwner after the call, on the returned value", async () => {
    const { orders, service, as } = await setup([
      methodPolicy("owners", "ALLOW", 10, "OrderService.get(string)", [
        "#ownership.isOwner(authentication, returnObject)",
      ]),
    ]);
    expect(as(ALICE, () => orders.get("1"))?.item).toBe("tea");
    expect(codeOf(() => as(ALICE, () => orders.get("2")))).toBe("ACCESS_DENIED");
    expect(service.calls).toEqual(["get:1", "get:2"]); // both ran: only the value could decide
  });
});

describe("sync and async methods", () => {
  it("refuses an async method with a rejection, without running it", async () => {
    const { orders, service, as } = await setup([
      methodPolicy("admins purge", "ALLOW", 10, "OrderService.purge()", ["hasRole('ADMIN')"]),
    ]);
    const refused = as(BOB, () => orders.purge());
    expect(refused).toBeInstanceOf(Promise);
    await expect(refused).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    expect(service.calls).toEqual([]);
    await expect(as(ADMIN, () => orders.purge())).resolves.toBe(2);
  });

  it("checks ownership on the awaited value", async () => {
    const { orders, as } = await setup();
    await expect(as(ALICE, () => orders.load("1"))).resolves.toMatchObject({ item: "tea" });
    await expect(as(BOB, () => orders.load("1"))).rejects.toMatchObject({ code: "ACCESS_DENIED" });
  });

  it("propagates the method's own rejection and exception unchanged", async () => {
    const { orders, as } = await setup();
    const rejection = await as(ALICE, () => orders.load("404")).catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(RangeError);
    expect((rejection as Error).message).toBe("no order 404");
    const failing = new OrderService();
    failing.cancel = () => {
      throw new SyntaxError("boom");
    };
    const other = await setup();
    const wrapped = new MethodSecurity(other.manager, other.context).protect(failing);
    expect(() => other.as(ALICE, () => wrapped.cancel("1"))).toThrow(SyntaxError);
  });
});

describe("members that are not protected", () => {
  it("pass through: fields, writes, other methods, instanceof", async () => {
    const { orders, service, as } = await setup([
      methodPolicy("nobody", "ALLOW", 1, "OrderService.cancel(string)", ["denyAll"]),
    ]);
    expect(orders.label).toBe("orders");
    orders.label = "renamed";
    expect(service.label).toBe("renamed");
    expect(as(undefined, () => orders.summary())).toBe("renamed:2");
    expect(orders).toBeInstanceOf(OrderService);
    expect(orders.get).toBe(orders.get); // one wrapper per method
  });

  it("runs protected methods on the instance itself", async () => {
    const { orders, service, as } = await setup();
    as(BOB, () => orders.cancel("1"));
    expect(service.orders.has("1")).toBe(false);
  });

  it("leaves an instance without @Protectable methods unwrapped", async () => {
    const { manager, context } = await setup();
    const plain = { hello: () => "hi" };
    expect(new MethodSecurity(manager, context).protect(plain)).toBe(plain);
  });
});

describe("MethodSecurity.register in a platform", () => {
  it("registers a protected singleton in a child container, deciding by the platform's policies", async () => {
    const platform = createPlatform({
      plugins: [authzPlugin],
      env: {},
      register: (c) => {
        c.registerInstance(Clock, new ManualClock());
        c.registerInstance(Logger, new JsonLogger(() => {}));
      },
    });
    await platform.start();
    const token: InjectionToken<OrderService> = Symbol("OrderService");
    const child = platform.container.createChildContainer();
    platform.resolve(MethodSecurity).register(child, token, OrderService);
    expect(platform.container.isRegistered(token, true)).toBe(false);
    const orders = child.resolve<OrderService>(token);
    expect(child.resolve(token)).toBe(orders);

    const context = platform.resolve(SecurityContextHolder);
    expect(context.run(BOB, () => orders.cancel("1"))).toBe(true);
    await platform.resolve(PolicyAdministrationService).create(
      {
        name: "admins cancel",
        description: "",
        effect: "ALLOW",
        priority: 10,
        targets: [{ targetType: "METHOD", targetIdentifier: "OrderService.cancel(string)" }],
        rules: [{ name: "admins", conditions: [{ expression: "hasRole('ADMIN')" }] }],
      },
      ADMIN,
    );
    expect(codeOf(() => context.run(BOB, () => orders.cancel("2")))).toBe("ACCESS_DENIED");
    expect(context.run(ADMIN, () => orders.cancel("2"))).toBe(true);

    platform.resolve(DecisionAuditQueue).drain();
    const sink = platform.resolve(AuditSink) as InMemoryAuditSink;
    const denied = sink.events().filter((e) => e.type === "authz.method.denied");
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({
      principal: "bob",
      data: { method: "OrderService.cancel(string)", policyName: "admins cancel" },
    });
    await platform.stop();
  });
});

describe("SecurityContextHolder", () => {
  const tick = () => new Promise<void>((r) => setTimeout(r, 1));

  it("has no caller outside run", () => {
    expect(new SecurityContextHolder().current()).toBeUndefined();
  });

  it("keeps the caller across awaits, and a nested run restores the outer caller", async () => {
    const context = new SecurityContextHolder();
    const seen = await context.run(ALICE, async () => {
      await tick();
      const first = context.current()?.username;
      const inner = await context.run(BOB, async () => {
        await tick();
        return context.current()?.username;
      });
      await new Promise((r) => setImmediate(r));
      return [first, inner, context.current()?.username];
    });
    expect(seen).toEqual(["alice", "bob", "alice"]);
  });

  it("isolates interleaved concurrent calls: each decision uses its own caller", async () => {
    const { orders, as } = await setup();
    let releaseAlice!: () => void;
    let releaseBob!: () => void;
    const aliceGate = new Promise<void>((r) => (releaseAlice = r));
    const bobGate = new Promise<void>((r) => (releaseBob = r));
    const aliceRun = as(ALICE, async () => {
      await aliceGate;
      return orders.load("1");
    });
    const bobRun = as(BOB, async () => {
      await bobGate;
      return orders.load("1");
    });
    releaseBob();
    await expect(bobRun).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    releaseAlice();
    await expect(aliceRun).resolves.toMatchObject({ owner: "alice" });
  });

  it("reads a getter at each call, so a sign-in during the run is seen at once", () => {
    const context = new SecurityContextHolder();
    let who: Authentication | undefined;
    context.run(
      () => who,
      () => {
        expect(context.current()).toBeUndefined();
        who = ALICE;
        expect(context.current()?.username).toBe("alice");
      },
    );
  });
});
