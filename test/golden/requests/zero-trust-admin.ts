import type { GoldenGroup } from "../golden-types.js";
import { badJsonBodies, csrf, getJson, getPage, hostileSteps, sendJson, step } from "./request-builders.js";

const Z = "/admin/api/zerotrust/actions";
const B = { bearer: true };
const as = (actor: string) => ({ actor });

/** The zero-trust admin API and what its actions do to a user's requests. */
export const zeroTrustAdmin: GoldenGroup = {
  name: "zero-trust-admin",
  description:
    "GET /admin/api/zerotrust/actions, GET/PUT/DELETE /admin/api/zerotrust/actions/{subject}, and the answers a BLOCK, CHALLENGE or ESCALATE gives",
  scenarios: [
    {
      name: "block user, see the effect, clear it",
      given: { admin: "bearer:admin", user: "bearer:user", session: "session:user" },
      steps: [
        step("GET /api/me as user (its id)", getJson("/api/me", B), {
          actor: "user",
          capture: { uid: "json:id" },
        }),
        step("GET actions", getJson(Z, B), as("admin")),
        step(
          "PUT user:<id> BLOCK",
          sendJson("PUT", `${Z}/user:{{uid}}`, { action: "BLOCK", reason: "golden" }, B),
          as("admin"),
        ),
        step("GET user:<id>", getJson(`${Z}/user:{{uid}}`, B), as("admin")),
        step("GET actions (the record)", getJson(Z, B), as("admin")),
        step("GET /api/me as the blocked user", getJson("/api/me", B), as("user")),
        step("GET /api/orders as the blocked user", getJson("/api/orders", B), as("user")),
        step("GET / as the blocked user's session", getPage("/"), as("session")),
        step("GET /passkeys as the blocked user's session", getPage("/passkeys"), as("session")),
        step(
          "POST /api/token/refresh of the blocked user",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{user.refresh}}" }),
        ),
        step(
          "POST /api/login as the blocked user",
          sendJson("POST", "/api/login", { username: "user", password: "password" }),
        ),
        step(
          "POST /api/login as the blocked user, wrong password",
          sendJson("POST", "/api/login", { username: "user", password: "nope" }),
        ),
        step(
          "POST /logout of the blocked session",
          sendJson("POST", "/logout", {}, { headers: csrf("session") }),
          as("session"),
        ),
        step("DELETE user:<id>", { method: "DELETE", path: `${Z}/user:{{uid}}`, bearer: true }, as("admin")),
        step(
          "DELETE user:<id> again",
          { method: "DELETE", path: `${Z}/user:{{uid}}`, bearer: true },
          as("admin"),
        ),
        step("GET user:<id> (none)", getJson(`${Z}/user:{{uid}}`, B), as("admin")),
      ],
    },
    {
      name: "CHALLENGE and ESCALATE, by username",
      given: { admin: "bearer:admin", user: "bearer:user" },
      steps: [
        step(
          "PUT username:user CHALLENGE",
          sendJson("PUT", `${Z}/username:user`, { action: "CHALLENGE" }, B),
          as("admin"),
        ),
        step("GET /api/orders (challenged)", getJson("/api/orders", B), as("user")),
        step("GET /api/me (challenged)", getJson("/api/me", B), as("user")),
        step(
          "PUT username:user ESCALATE with a TTL",
          sendJson("PUT", `${Z}/username:user`, { action: "ESCALATE", ttlSeconds: 60 }, B),
          as("admin"),
        ),
        step("GET /api/orders (escalated)", getJson("/api/orders", B), as("user")),
        { name: "61 seconds pass", advanceClock: "PT61S" },
        step("GET /api/orders (the record expired)", getJson("/api/orders", B), as("user")),
        step(
          "PUT username:user ALLOW",
          sendJson("PUT", `${Z}/username:user`, { action: "ALLOW" }, B),
          as("admin"),
        ),
        step("GET /api/orders (allowed)", getJson("/api/orders", B), as("user")),
      ],
    },
    {
      name: "bad subjects and bodies, callers who may not",
      given: { admin: "bearer:admin", user: "bearer:user" },
      steps: [
        step("PUT user:unknown", sendJson("PUT", `${Z}/user:unknown`, { action: "BLOCK" }, B), as("admin")),
        step(
          "PUT username:nobody",
          sendJson("PUT", `${Z}/username:nobody`, { action: "BLOCK" }, B),
          as("admin"),
        ),
        step("PUT an unknown prefix", sendJson("PUT", `${Z}/team:x`, { action: "BLOCK" }, B), as("admin")),
        step("PUT without a subject", sendJson("PUT", Z, { action: "BLOCK" }, B), as("admin")),
        step(
          "PUT a session handle",
          sendJson("PUT", `${Z}/session:AAAAAAAAAAAAAAAAAAAAAA`, { action: "BLOCK" }, B),
          as("admin"),
        ),
        step(
          "PUT username:user, unknown action",
          sendJson("PUT", `${Z}/username:user`, { action: "MAYBE" }, B),
          as("admin"),
        ),
        step(
          "PUT username:user, unknown field",
          sendJson("PUT", `${Z}/username:user`, { action: "BLOCK", who: 1 }, B),
          as("admin"),
        ),
        step(
          "PUT username:user, ttlSeconds 0",
          sendJson("PUT", `${Z}/username:user`, { action: "BLOCK", ttlSeconds: 0 }, B),
          as("admin"),
        ),
        ...badJsonBodies("PUT username:user", "PUT", `${Z}/username:user`, B, "admin"),
        step(
          "POST actions (wrong method)",
          sendJson("POST", `${Z}/username:user`, { action: "BLOCK" }, B),
          as("admin"),
        ),
        step("GET actions anonymous", getJson(Z)),
        step("GET actions as user", getJson(Z, B), as("user")),
        step("PUT as user", sendJson("PUT", `${Z}/username:user`, { action: "ALLOW" }, B), as("user")),
        ...hostileSteps("GET username:admin", getJson(`${Z}/username:admin`, B), "admin"),
        ...hostileSteps(
          "PUT username:user as user",
          sendJson("PUT", `${Z}/username:user`, { action: "ALLOW" }, B),
          "user",
        ),
      ],
    },
  ],
};
