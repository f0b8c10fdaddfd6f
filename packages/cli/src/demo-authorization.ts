import { type RouteRegistry, routeParams } from "@keyward/adapters-http";
import { currentAuthentication, type Platform } from "@keyward/core";
import { PlatformError } from "@keyward/core/errors";
import { type PolicyCreateInput, PolicyAdministrationService, MethodSecurity } from "@keyward/core/authz";
import { AuditLog } from "@keyward/core/ports";
import type { InjectionToken } from "tsyringe";
import { OrderService } from "./demo-orders.js";
import { DEMO_CONTRACTS } from "./demo-contracts.js";

/** DI token of the demo's method-protected OrderService. */
export const OrderServiceToken: InjectionToken<OrderService> = Symbol.for("demo.OrderService");

/** The demo's database policies: `/admin/**` for ADMIN, and the sample `/api/orders/**`. */
export const DEMO_POLICIES: readonly PolicyCreateInput[] = [
  {
    name: "Admin area",
    description: "Only administrators reach /admin/** (pages and the admin API).",
    effect: "ALLOW",
    priority: 10,
    targets: [{ targetType: "URL", targetIdentifier: "/admin/**" }],
    rules: [{ name: "administrators", conditions: [{ expression: "hasRole('ADMIN')" }] }],
  },
  {
    name: "Orders: cancel",
    description: "Only administrators cancel orders.",
    effect: "ALLOW",
    priority: 20,
    targets: [{ targetType: "URL", targetIdentifier: "/api/orders/{id}", httpMethod: "DELETE" }],
    rules: [{ name: "administrators", conditions: [{ expression: "ROLE_ADMIN" }] }],
  },
  {
    name: "Orders: signed-in users",
    description:
      "Signed-in users list, read and place orders, unless the zero-trust analysis blocked them. " +
      "(Under FIRST_APPLICABLE the first matching policy decides, so the block is part of this " +
      "condition: a separate DENY policy placed first would grant everyone its condition misses.)",
    effect: "ALLOW",
    priority: 40,
    targets: [{ targetType: "URL", targetIdentifier: "/api/orders/**" }],
    rules: [
      { name: "users", conditions: [{ expression: "hasAnyRole('USER', 'ADMIN') and !#ai.isBlocked()" }] },
    ],
  },
];

/**
 * Stores the demo policies that are missing through the PAP, as the system actor `system:demo-seed`
 * (validated, audited, reloaded; safe when instances start together: `seedMissing`).
 */
export async function seedDemoPolicies(platform: Platform): Promise<void> {
  const pap = platform.resolve(PolicyAdministrationService);
  await pap.seedMissing(DEMO_POLICIES, pap.systemActor("demo-seed"));
}

/** Registers the method-protected OrderService (call before `platform.start()`). */
export function registerDemoOrders(platform: Platform): void {
  platform.resolve(MethodSecurity).register(platform.container, OrderServiceToken, OrderService);
}

/** The demo's routes behind dynamic authorization: the admin page, audit view and the orders API. */
export function addDemoAuthorizationRoutes(routes: RouteRegistry, platform: Platform): void {
  addDemoAdminRoutes(routes, platform);
  // Resolved at the first request that needs it (registered before start, built after), then kept.
  let service: OrderService | undefined;
  const orders = (): OrderService => (service ??= platform.resolve(OrderServiceToken));
  routes.add({
    method: "GET",
    path: "/api/orders",
    name: "orders.list",
    meta: { contract: DEMO_CONTRACTS.list },
    description: "List the caller's orders (ROLE_ADMIN: every order)",
    // The caller is passed to `list` (not a @Protectable method), so the route needs no caller
    // context: no async-context tracking for it (docs/authorization.md, method protection).
    callerContext: false,
    handler: (ex) => {
      const who = currentAuthentication(ex);
      if (!who) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
      service ??= platform.resolve(OrderServiceToken);
      return service.list(who);
    },
  });
  routes.add({
    method: "POST",
    path: "/api/orders",
    name: "orders.place",
    meta: { contract: DEMO_CONTRACTS.place },
    description: "Place an order",
    handler: async (ex) => {
      const who = currentAuthentication(ex);
      if (!who) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
      const { item, quantity } = await ex.fields(["json"]);
      if (typeof item !== "string" || item.length < 1 || item.length > 200) {
        throw new PlatformError("VALIDATION_FAILED", "item must be a string of 1 to 200 characters");
      }
      const qty = quantity === undefined ? 1 : quantity;
      if (typeof qty !== "number" || !Number.isInteger(qty) || qty < 1 || qty > 1000) {
        throw new PlatformError("VALIDATION_FAILED", "quantity must be an integer from 1 to 1000");
      }
      ex.json(201, { ...orders().place(who, item, qty) });
    },
  });
  routes.add({
    method: "GET",
    path: "/api/orders/{id}",
    name: "orders.get",
    meta: { contract: DEMO_CONTRACTS.get },
    description: "One order (method-protected: owner or admin)",
    handler: (ex) => ({ ...orders().get(orderId(ex)) }),
  });
  routes.add({
    method: "DELETE",
    path: "/api/orders/{id}",
    name: "orders.cancel",
    meta: { contract: DEMO_CONTRACTS.cancel },
    description: "Cancel an order (policy 'Orders: cancel')",
    handler: (ex) => {
      if (!orders().cancel(orderId(ex))) throw new PlatformError("NOT_FOUND", "No such order");
      ex.json(200, { cancelled: true });
    },
  });
}

function orderId(ex: Parameters<typeof routeParams>[0]): string {
  const id = routeParams(ex).id ?? "";
  if (!/^\d{1,12}$/.test(id)) throw new PlatformError("NOT_FOUND", "No such order");
  return id;
}

/** The demo's admin page and audit view (policy 'Admin area'). */
function addDemoAdminRoutes(routes: RouteRegistry, platform: Platform): void {
  routes.add({
    method: "GET",
    path: "/admin",
    name: "admin.page",
    meta: { contract: { responses: { 200: { description: "The admin page", media: "html" } } } },
    description: "Admin area (policy 'Admin area')",
    handler: (ex) =>
      ex.html(
        200,
        `<!doctype html><title>Admin</title><h1>Admin area</h1><p>Allowed by the database policy 'Admin area'.</p>` +
          `<ul><li><a href="/admin/api/policies">/admin/api/policies</a></li><li><a href="/admin/api/audit?type=authz.denied">denied requests</a></li></ul>`,
      ),
  });
  routes.add({
    method: "GET",
    path: "/admin/api/audit",
    name: "admin.audit",
    meta: { contract: DEMO_CONTRACTS.audit },
    description: "The 100 most recent audit records (AuditLog), optionally ?type=",
    handler: async (ex) => {
      const type = ex.query.get("type");
      const events = await platform.resolve(AuditLog).query({ ...(type ? { type } : {}), limit: 100 });
      ex.response.headers.set("cache-control", "no-store");
      ex.json(200, events);
    },
  });
}
