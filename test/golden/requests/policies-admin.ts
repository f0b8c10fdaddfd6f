import type { GoldenGroup } from "../golden-types.js";
import { badJsonBodies, getJson, hostileSteps, sendJson, step } from "./request-builders.js";

const P = "/admin/api/policies";
const B = { bearer: true };
const as = (actor: string) => ({ actor });
const POLICY = {
  name: "Reports: admins",
  description: "Only administrators read reports.",
  effect: "ALLOW",
  priority: 30,
  targets: [{ targetType: "URL", targetIdentifier: "/api/reports/**", httpMethod: "GET" }],
  rules: [{ name: "administrators", conditions: [{ expression: "hasRole('ADMIN')" }] }],
};

/** The policy administration API (PAP) and the simulator. */
export const policiesAdmin: GoldenGroup = {
  name: "policies-admin",
  description:
    "GET/POST /admin/api/policies, GET/PUT/DELETE /admin/api/policies/{id}, POST /admin/api/policies/{id}/approve|reject|activate|deactivate, " +
    "POST /admin/api/policies/simulate",
  scenarios: [
    {
      name: "list, create, read, update, move, delete",
      given: { admin: "bearer:admin" },
      steps: [
        step("GET policies", getJson(P, B), as("admin")),
        step(
          "GET policies ?targetType=URL&q=Orders",
          getJson(`${P}?targetType=URL&q=Orders`, B),
          as("admin"),
        ),
        step("GET policies ?isActive=maybe", getJson(`${P}?isActive=maybe`, B), as("admin")),
        step("POST policy", sendJson("POST", P, POLICY, B), { actor: "admin", capture: { id: "json:id" } }),
        step("POST policy, same name", sendJson("POST", P, POLICY, B), as("admin")),
        step(
          "POST policy, invalid expression",
          sendJson(
            "POST",
            P,
            {
              ...POLICY,
              name: "Bad",
              rules: [{ name: "r", conditions: [{ expression: "hasRole('ADMIN' and" }] }],
            },
            B,
          ),
          as("admin"),
        ),
        step(
          "POST policy, backreference in a regex target",
          sendJson(
            "POST",
            P,
            {
              ...POLICY,
              name: "Regex",
              targets: [{ targetType: "URL", targetIdentifier: "/api/{x:(a)\\1}" }],
            },
            B,
          ),
          as("admin"),
        ),
        step(
          "POST policy, unknown effect",
          sendJson("POST", P, { ...POLICY, name: "Effect", effect: "MAYBE" }, B),
          as("admin"),
        ),
        ...badJsonBodies("POST policy", "POST", P, B, "admin"),
        step("PATCH policies (wrong method)", sendJson("PATCH", P, {}, B), as("admin")),
        step("GET the policy", getJson(`${P}/{{id}}`, B), as("admin")),
        step("GET an unknown policy", getJson(`${P}/unknown`, B), as("admin")),
        step(
          "PUT the policy without a version",
          sendJson("PUT", `${P}/{{id}}`, { priority: 31 }, B),
          as("admin"),
        ),
        step("PUT the policy", sendJson("PUT", `${P}/{{id}}`, { version: 1, priority: 31 }, B), as("admin")),
        step(
          "PUT the policy, stale version",
          sendJson("PUT", `${P}/{{id}}`, { version: 1, priority: 32 }, B),
          as("admin"),
        ),
        step("POST deactivate", sendJson("POST", `${P}/{{id}}/deactivate`, {}, B), as("admin")),
        step("POST activate", sendJson("POST", `${P}/{{id}}/activate`, {}, B), as("admin")),
        step("POST approve (a manual policy)", sendJson("POST", `${P}/{{id}}/approve`, {}, B), as("admin")),
        step(
          "POST reject, reason not a string",
          sendJson("POST", `${P}/{{id}}/reject`, { reason: 1 }, B),
          as("admin"),
        ),
        step("GET approve (wrong method)", getJson(`${P}/{{id}}/approve`, B), as("admin")),
        ...hostileSteps("GET the policy", getJson(`${P}/{{id}}`, B), "admin"),
        step("DELETE the policy", { method: "DELETE", path: `${P}/{{id}}`, bearer: true }, as("admin")),
        step("DELETE it again", { method: "DELETE", path: `${P}/{{id}}`, bearer: true }, as("admin")),
      ],
    },
    {
      name: "simulator",
      given: { admin: "bearer:admin", session: "session:admin" },
      steps: [
        step(
          "simulate user DELETE /api/orders/7",
          sendJson("POST", `${P}/simulate`, { username: "user", method: "DELETE", path: "/api/orders/7" }, B),
          as("admin"),
        ),
        step(
          "simulate admin GET /admin",
          sendJson("POST", `${P}/simulate`, { username: "admin", method: "GET", path: "/admin" }, B),
          as("admin"),
        ),
        step(
          "simulate a non-canonical path",
          sendJson("POST", `${P}/simulate`, { username: "user", method: "GET", path: "/api/orders/%37/" }, B),
          as("admin"),
        ),
        step(
          "simulate a refused path",
          sendJson("POST", `${P}/simulate`, { username: "user", method: "GET", path: "/api//orders" }, B),
          as("admin"),
        ),
        step(
          "simulate an unknown user",
          sendJson("POST", `${P}/simulate`, { username: "nobody", method: "GET", path: "/api/orders" }, B),
          as("admin"),
        ),
        ...badJsonBodies("simulate", "POST", `${P}/simulate`, B, "admin"),
        step("GET simulate (wrong method)", getJson(`${P}/simulate`, B), as("admin")),
        step(
          "simulate, session without a CSRF token",
          sendJson("POST", `${P}/simulate`, { username: "user", method: "GET", path: "/api/orders" }),
          as("session"),
        ),
        step(
          "simulate, session with the CSRF token",
          sendJson(
            "POST",
            `${P}/simulate`,
            { username: "user", method: "GET", path: "/api/orders" },
            { headers: { "x-csrf-token": "{{session.csrf}}" } },
          ),
          as("session"),
        ),
        ...hostileSteps(
          "simulate",
          sendJson("POST", `${P}/simulate`, { username: "user", method: "GET", path: "/api/orders" }, B),
          "admin",
        ),
      ],
    },
    {
      name: "callers who may not",
      given: { user: "bearer:user", session: "session:user" },
      steps: [
        step("GET policies anonymous", getJson(P)),
        step("GET policies as user", getJson(P, B), as("user")),
        step("POST policy as user", sendJson("POST", P, POLICY, B), as("user")),
        step(
          "simulate as user",
          sendJson("POST", `${P}/simulate`, { username: "user", method: "GET", path: "/" }, B),
          as("user"),
        ),
        step("GET policies, user session", getJson(P), as("session")),
        step(
          "GET /admin, user session",
          { method: "GET", path: "/admin", headers: { accept: "text/html" } },
          as("session"),
        ),
        ...hostileSteps("GET policies as user", getJson(P, B), "user"),
      ],
    },
  ],
};
