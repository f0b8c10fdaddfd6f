import type { GoldenGroup } from "../golden-types.js";
import { badJsonBodies, csrf, getJson, getPage, hostileSteps, sendJson, step } from "./request-builders.js";

const B = { bearer: true };
const as = (actor: string) => ({ actor });

/** The demo's own routes behind dynamic authorization: `/api/orders`, `/admin`, `/admin/api/audit`. */
export const ordersAndAudit: GoldenGroup = {
  name: "orders-and-audit",
  description: "GET/POST /api/orders, GET/DELETE /api/orders/{id}, GET /admin, GET /admin/api/audit",
  scenarios: [
    {
      name: "orders: place, list, read, cancel",
      given: { user: "bearer:user", admin: "bearer:admin", admin2: "bearer:admin2" },
      steps: [
        step(
          "POST /api/orders as user",
          sendJson("POST", "/api/orders", { item: "tea", quantity: 2 }, B),
          as("user"),
        ),
        step(
          "POST /api/orders as admin2",
          sendJson("POST", "/api/orders", { item: "cake" }, B),
          as("admin2"),
        ),
        step("GET /api/orders as user (own)", getJson("/api/orders", B), as("user")),
        step("GET /api/orders as admin (every order)", getJson("/api/orders", B), as("admin")),
        step("GET /api/orders/1 as user (owner)", getJson("/api/orders/1", B), as("user")),
        step("GET /api/orders/2 as user (not the owner)", getJson("/api/orders/2", B), as("user")),
        step("GET /api/orders/1 as admin", getJson("/api/orders/1", B), as("admin")),
        step("GET /api/orders/99", getJson("/api/orders/99", B), as("user")),
        step("GET /api/orders/abc", getJson("/api/orders/abc", B), as("user")),
        step(
          "DELETE /api/orders/1 as user",
          { method: "DELETE", path: "/api/orders/1", bearer: true, headers: { accept: "application/json" } },
          as("user"),
        ),
        ...hostileSteps(
          "DELETE /api/orders/1 as user",
          { method: "DELETE", path: "/api/orders/1", bearer: true, headers: { accept: "application/json" } },
          "user",
        ),
        ...hostileSteps("GET /api/orders/2 as user", getJson("/api/orders/2", B), "user"),
        step(
          "DELETE /api/orders/1 as admin",
          { method: "DELETE", path: "/api/orders/1", bearer: true, headers: { accept: "application/json" } },
          as("admin"),
        ),
        step(
          "DELETE /api/orders/1 again",
          { method: "DELETE", path: "/api/orders/1", bearer: true, headers: { accept: "application/json" } },
          as("admin"),
        ),
        step("GET /api/orders/1 after", getJson("/api/orders/1", B), as("admin")),
        step(
          "PUT /api/orders (wrong method)",
          sendJson("PUT", "/api/orders", { item: "tea" }, B),
          as("user"),
        ),
      ],
    },
    {
      name: "orders: bad requests and callers",
      given: { user: "bearer:user", session: "session:user" },
      steps: [
        step("GET /api/orders anonymous", getJson("/api/orders")),
        step("POST /api/orders anonymous", sendJson("POST", "/api/orders", { item: "tea" })),
        step("GET /api/orders with a session (stateless chain)", getJson("/api/orders"), as("session")),
        step(
          "POST /api/orders, item missing",
          sendJson("POST", "/api/orders", { quantity: 1 }, B),
          as("user"),
        ),
        step(
          "POST /api/orders, quantity 0",
          sendJson("POST", "/api/orders", { item: "tea", quantity: 0 }, B),
          as("user"),
        ),
        step(
          "POST /api/orders, quantity 1.5",
          sendJson("POST", "/api/orders", { item: "tea", quantity: 1.5 }, B),
          as("user"),
        ),
        ...badJsonBodies("POST /api/orders", "POST", "/api/orders", B, "user"),
        ...hostileSteps("GET /api/orders", getJson("/api/orders", B), "user"),
      ],
    },
    {
      name: "admin page and audit",
      given: {
        user: "bearer:user",
        admin: "bearer:admin",
        session: "session:user",
        adminSession: "session:admin",
      },
      steps: [
        step("GET /admin anonymous, JSON", getJson("/admin")),
        step("GET /admin, user session", getPage("/admin"), as("session")),
        step("GET /admin, admin session", getPage("/admin"), as("adminSession")),
        step("GET /admin with an admin bearer token", getPage("/admin", B), as("admin")),
        step(
          "POST /admin, admin session (wrong method)",
          sendJson("POST", "/admin", {}, { headers: csrf("adminSession") }),
          as("adminSession"),
        ),
        ...hostileSteps("GET /admin, user session", getPage("/admin"), "session"),
        step(
          "GET /admin/api/audit?type=authz.denied",
          getJson("/admin/api/audit?type=authz.denied", B),
          as("admin"),
        ),
        step(
          "GET /admin/api/audit?type=http.access.denied",
          getJson("/admin/api/audit?type=http.access.denied", B),
          as("admin"),
        ),
        step("GET /admin/api/audit?type=none", getJson("/admin/api/audit?type=none", B), as("admin")),
        step("GET /admin/api/audit anonymous", getJson("/admin/api/audit")),
        step("GET /admin/api/audit as user", getJson("/admin/api/audit", B), as("user")),
        step(
          "POST /admin/api/audit (wrong method)",
          sendJson("POST", "/admin/api/audit", {}, B),
          as("admin"),
        ),
        ...hostileSteps("GET /admin/api/audit?type=none", getJson("/admin/api/audit?type=none", B), "admin"),
      ],
    },
  ],
};
