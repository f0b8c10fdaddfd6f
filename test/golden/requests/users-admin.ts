import type { GoldenGroup } from "../golden-types.js";
import {
  badJsonBodies,
  getJson,
  getPage,
  hostileSteps,
  postForm,
  sendJson,
  step,
} from "./request-builders.js";

const U = "/admin/api/users";
const B = { bearer: true };
const as = (actor: string) => ({ actor });

/** The users admin API and the password-reset page. */
export const usersAdmin: GoldenGroup = {
  name: "users-admin",
  description:
    "GET/POST /admin/api/users, GET /admin/api/users/{id}, POST /admin/api/users/{id}/disable|enable|unlock|reset-password, " +
    "GET/POST /reset-password",
  scenarios: [
    {
      name: "list, create, read, disable, enable, unlock, set a password",
      given: { admin: "bearer:admin" },
      steps: [
        step("GET users", getJson(U, B), as("admin")),
        step("GET users ?q=adm&limit=2", getJson(`${U}?q=adm&limit=2`, B), as("admin")),
        step("GET users ?limit=0", getJson(`${U}?limit=0`, B), as("admin")),
        step("GET users ?limit=x", getJson(`${U}?limit=x`, B), as("admin")),
        step("GET users ?q=a&q=b", getJson(`${U}?q=a&q=b`, B), as("admin")),
        step("GET users ?unknown=1", getJson(`${U}?unknown=1`, B), as("admin")),
        step(
          "POST users",
          sendJson("POST", U, { username: "kim", password: "kim-password-1", authorities: ["ROLE_USER"] }, B),
          {
            actor: "admin",
            capture: { id: "json:id" },
          },
        ),
        step(
          "POST users, the same username",
          sendJson("POST", U, { username: "kim", password: "kim-password-1" }, B),
          as("admin"),
        ),
        step(
          "POST users, unknown field",
          sendJson("POST", U, { username: "lee", admin: true }, B),
          as("admin"),
        ),
        step(
          "POST users, weak password",
          sendJson("POST", U, { username: "lee", password: "short" }, B),
          as("admin"),
        ),
        step(
          "POST users, invisible character in the username",
          sendJson("POST", U, { username: "le\u200be" }, B),
          as("admin"),
        ),
        ...badJsonBodies("POST users", "POST", U, B, "admin"),
        step("DELETE users (wrong method)", { method: "DELETE", path: U, bearer: true }, as("admin")),
        step("GET the user", getJson(`${U}/{{id}}`, B), as("admin")),
        step("GET an unknown user", getJson(`${U}/unknown`, B), as("admin")),
        step("GET an ill-formed id", getJson(`${U}/a.b`, B), as("admin")),
        step("POST the user (wrong method)", sendJson("POST", `${U}/{{id}}`, {}, B), as("admin")),
        step("POST disable", sendJson("POST", `${U}/{{id}}/disable`, {}, B), as("admin")),
        step(
          "POST /api/login as the disabled user",
          sendJson("POST", "/api/login", { username: "kim", password: "kim-password-1" }),
        ),
        step("POST enable", sendJson("POST", `${U}/{{id}}/enable`, {}, B), as("admin")),
        step("POST unlock", sendJson("POST", `${U}/{{id}}/unlock`, {}, B), as("admin")),
        step("GET disable (wrong method)", getJson(`${U}/{{id}}/disable`, B), as("admin")),
        step("POST an unknown action", sendJson("POST", `${U}/{{id}}/promote`, {}, B), as("admin")),
        step(
          "POST reset-password {password}",
          sendJson("POST", `${U}/{{id}}/reset-password`, { password: "kim-password-2" }, B),
          as("admin"),
        ),
        step("POST reset-password {}", sendJson("POST", `${U}/{{id}}/reset-password`, {}, B), as("admin")),
        step(
          "POST /api/login with the new password",
          sendJson("POST", "/api/login", { username: "kim", password: "kim-password-2" }),
        ),
        ...hostileSteps("GET the user", getJson(`${U}/{{id}}`, B), "admin"),
        ...hostileSteps("POST disable", sendJson("POST", `${U}/{{id}}/disable`, {}, B), "admin"),
      ],
    },
    {
      name: "reset link → page → new password",
      given: { admin: "bearer:admin" },
      steps: [
        step("POST users", sendJson("POST", U, { username: "ivy", password: "ivy-password-1" }, B), {
          actor: "admin",
          capture: { id: "json:id" },
        }),
        step(
          "POST reset-password {sendLink: true}",
          sendJson("POST", `${U}/{{id}}/reset-password`, { sendLink: true }, B),
          as("admin"),
        ),
        { name: "the reset link in the outbox", outbox: { username: "ivy" }, capture: { token: "token" } },
        step(
          "GET /reset-password?token= (the page; the token is not spent)",
          getPage("/reset-password?token={{token}}"),
          {
            capture: { csrf: "html:csrf" },
          },
        ),
        step("GET /reset-password without a token", getPage("/reset-password")),
        step(
          "POST /reset-password without a CSRF token",
          postForm("/reset-password", { token: "{{token}}", password: "ivy-password-2" }),
        ),
        step(
          "POST /reset-password, weak password",
          postForm("/reset-password", { token: "{{token}}", password: "short", _csrf: "{{csrf}}" }),
        ),
        step(
          "POST /reset-password, unknown token",
          postForm("/reset-password", { token: "nope", password: "ivy-password-2", _csrf: "{{csrf}}" }),
        ),
        ...badJsonBodies("POST /reset-password", "POST", "/reset-password", {
          headers: { "x-csrf-token": "{{csrf}}" },
        }),
        step(
          "PUT /reset-password (wrong method)",
          sendJson("PUT", "/reset-password", {}, { headers: { "x-csrf-token": "{{csrf}}" } }),
        ),
        ...hostileSteps("GET /reset-password", getPage("/reset-password")),
        step(
          "POST /reset-password",
          postForm("/reset-password", { token: "{{token}}", password: "ivy-password-2", _csrf: "{{csrf}}" }),
        ),
        step(
          "POST /reset-password again (spent)",
          postForm("/reset-password", { token: "{{token}}", password: "ivy-password-3", _csrf: "{{csrf}}" }),
        ),
        step(
          "POST /api/login with the new password",
          sendJson("POST", "/api/login", { username: "ivy", password: "ivy-password-2" }),
        ),
      ],
    },
    {
      name: "callers who may not",
      given: { user: "bearer:user", admin: "session:admin" },
      steps: [
        step("GET users anonymous", getJson(U)),
        step("GET users as user", getJson(U, B), as("user")),
        step("POST users as user", sendJson("POST", U, { username: "zed" }, B), as("user")),
        step("GET users, admin session", getJson(U), as("admin")),
        step(
          "POST users, admin session without a CSRF token",
          sendJson("POST", U, { username: "zed" }),
          as("admin"),
        ),
        step(
          "POST users, admin session with the CSRF token",
          sendJson(
            "POST",
            U,
            { username: "zed", password: "zed-password-1" },
            { headers: { "x-csrf-token": "{{admin.csrf}}" } },
          ),
          as("admin"),
        ),
        ...hostileSteps("GET users as user", getJson(U, B), "user"),
      ],
    },
  ],
};
