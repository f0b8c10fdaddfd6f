import type { GoldenGroup } from "../golden-types.js";
import { badJsonBodies, getJson, hostileSteps, sendJson, step } from "./request-builders.js";

const USER = { username: "user", password: "password" };

/** REST login, `/api/me`, refresh, revoke and `/api/logout` on the stateless token chain. */
export const restAndTokens: GoldenGroup = {
  name: "rest-and-tokens",
  description:
    "POST /api/login, GET /api/me, POST /api/token/refresh, POST /api/token/revoke, POST /api/logout",
  scenarios: [
    {
      name: "REST login answers",
      steps: [
        step("POST /api/login", sendJson("POST", "/api/login", USER)),
        step(
          "POST /api/login, wrong password",
          sendJson("POST", "/api/login", { ...USER, password: "nope" }),
        ),
        step(
          "POST /api/login, unknown user",
          sendJson("POST", "/api/login", { username: "nobody", password: "x" }),
        ),
        step("POST /api/login, password missing", sendJson("POST", "/api/login", { username: "user" })),
        step(
          "POST /api/login, fields of the wrong type",
          sendJson("POST", "/api/login", { username: 1, password: [] }),
        ),
        ...badJsonBodies("POST /api/login", "POST", "/api/login"),
        step("POST /api/login, form body", {
          method: "POST",
          path: "/api/login",
          form: USER,
          headers: { accept: "application/json" },
        }),
        step("GET /api/login (wrong method)", getJson("/api/login")),
        ...hostileSteps("POST /api/login", sendJson("POST", "/api/login", USER)),
      ],
    },
    {
      name: "who am I",
      given: { session: "session:user", bearer: "bearer:user", admin: "bearer:admin" },
      steps: [
        step("GET /api/me anonymous", getJson("/api/me")),
        step("GET /api/me anonymous, browser", {
          method: "GET",
          path: "/api/me",
          headers: { accept: "text/html" },
        }),
        step("GET /api/me with a session", getJson("/api/me"), { actor: "session" }),
        step("GET /api/me with a bearer token", getJson("/api/me", { bearer: true }), { actor: "bearer" }),
        step("GET /api/me admin (after MFA)", getJson("/api/me", { bearer: true }), { actor: "admin" }),
        step(
          "GET /api/me with a malformed token",
          getJson("/api/me", { headers: { authorization: "Bearer abc" } }),
        ),
        step(
          "GET /api/me with a Basic header",
          getJson("/api/me", { headers: { authorization: "Basic dXNlcjpwYXNzd29yZA==" } }),
        ),
        step("POST /api/me (wrong method)", sendJson("POST", "/api/me", {}, { bearer: true }), {
          actor: "bearer",
        }),
        ...hostileSteps("GET /api/me", getJson("/api/me", { bearer: true }), "bearer"),
      ],
    },
    {
      name: "REST login → refresh → reuse → revoke",
      steps: [
        step("POST /api/login", sendJson("POST", "/api/login", USER), {
          capture: { access: "json:accessToken", refresh: "json:refreshToken" },
        }),
        step("GET /api/me", getJson("/api/me", { headers: { authorization: "Bearer {{access}}" } })),
        step(
          "POST /api/token/refresh",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{refresh}}" }),
          {
            capture: { access2: "json:accessToken", refresh2: "json:refreshToken" },
          },
        ),
        step(
          "GET /api/me with the new token",
          getJson("/api/me", { headers: { authorization: "Bearer {{access2}}" } }),
        ),
        step(
          "POST /api/token/revoke",
          sendJson("POST", "/api/token/revoke", { refreshToken: "{{refresh2}}" }),
        ),
        step(
          "GET /api/me with the revoked sign-in's token",
          getJson("/api/me", { headers: { authorization: "Bearer {{access2}}" } }),
        ),
        step(
          "POST /api/token/refresh with the revoked token",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{refresh2}}" }),
        ),
        step("POST /api/login again", sendJson("POST", "/api/login", USER), {
          capture: { access3: "json:accessToken", refresh3: "json:refreshToken" },
        }),
        step(
          "POST /api/token/refresh of the second sign-in",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{refresh3}}" }),
          {
            capture: { access4: "json:accessToken" },
          },
        ),
        step(
          "POST /api/token/refresh, spent token within 5 s (a lost race)",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{refresh3}}" }),
        ),
        { name: "6 seconds pass", advanceClock: "PT6S" },
        step(
          "POST /api/token/refresh, spent token reused",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{refresh3}}" }),
        ),
        step(
          "GET /api/me with the family's newest token",
          getJson("/api/me", { headers: { authorization: "Bearer {{access4}}" } }),
        ),
      ],
    },
    {
      name: "refresh and revoke: bad requests",
      steps: [
        step(
          "POST /api/token/refresh, unknown token",
          sendJson("POST", "/api/token/refresh", { refreshToken: "unknown" }),
        ),
        step(
          "POST /api/token/refresh, token of the wrong type",
          sendJson("POST", "/api/token/refresh", { refreshToken: 42 }),
        ),
        ...badJsonBodies("POST /api/token/refresh", "POST", "/api/token/refresh"),
        step("GET /api/token/refresh (wrong method)", getJson("/api/token/refresh")),
        ...hostileSteps(
          "POST /api/token/refresh",
          sendJson("POST", "/api/token/refresh", { refreshToken: "unknown" }),
        ),
        step(
          "POST /api/token/revoke, unknown token",
          sendJson("POST", "/api/token/revoke", { refreshToken: "unknown" }),
        ),
        ...badJsonBodies("POST /api/token/revoke", "POST", "/api/token/revoke"),
        step("GET /api/token/revoke (wrong method)", getJson("/api/token/revoke")),
        ...hostileSteps(
          "POST /api/token/revoke",
          sendJson("POST", "/api/token/revoke", { refreshToken: "unknown" }),
        ),
      ],
    },
    {
      name: "API logout",
      given: { bearer: "bearer:user", other: "bearer:user" },
      steps: [
        step("POST /api/logout anonymous", sendJson("POST", "/api/logout", {})),
        step("GET /api/logout (wrong method)", getJson("/api/logout", { bearer: true }), { actor: "bearer" }),
        step("POST /api/logout with a bearer token", sendJson("POST", "/api/logout", {}, { bearer: true }), {
          actor: "bearer",
        }),
        step("GET /api/me with the logged-out token", getJson("/api/me", { bearer: true }), {
          actor: "bearer",
        }),
        step(
          "POST /api/token/refresh with its refresh token",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{bearer.refresh}}" }),
        ),
        step("GET /api/me of the other sign-in", getJson("/api/me", { bearer: true }), { actor: "other" }),
        step(
          "POST /api/logout with a refresh token body",
          sendJson("POST", "/api/logout", { refreshToken: "{{other.refresh}}" }),
        ),
        step("GET /api/me of the other sign-in after", getJson("/api/me", { bearer: true }), {
          actor: "other",
        }),
        ...hostileSteps("POST /api/logout", sendJson("POST", "/api/logout", {})),
      ],
    },
    {
      name: "expired access token (the clock moves 16 minutes)",
      given: { bearer: "bearer:user" },
      steps: [
        { name: "16 minutes pass", advanceClock: "PT16M" },
        step("GET /api/me with the expired token", getJson("/api/me", { bearer: true }), { actor: "bearer" }),
        step(
          "POST /api/token/refresh",
          sendJson("POST", "/api/token/refresh", { refreshToken: "{{bearer.refresh}}" }),
        ),
      ],
    },
  ],
};
