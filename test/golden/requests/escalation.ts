import type { GoldenGroup } from "../golden-types.js";
import { getJson, hostileSteps, sendJson, step } from "./request-builders.js";

const POLL = "/api/token-mfa/api/mfa/escalation";
const USER = { username: "user", password: "password" };
const EVE = { username: "eve", password: "eve-password-1" };

/** Escalation (adaptive policy, lowered thresholds as in the README): the held client and the admin API. */
export const escalation: GoldenGroup = {
  name: "escalation",
  description:
    "Adaptive MFA with strict 0.55: an ESCALATED API sign-in (202), its poll, GET /admin/api/mfa/escalations, " +
    "POST /admin/api/mfa/escalations/{id}/approve|reject",
  env: {
    PLATFORM_AUTH_MFA_POLICY: "adaptive",
    SECURITY_ZEROTRUST_THRESHOLDS_REQUIRED: "0.55",
    SECURITY_ZEROTRUST_THRESHOLDS_STRICT: "0.55",
  },
  scenarios: [
    {
      name: "held sign-in, rejected",
      cookies: false,
      given: { admin2: "bearer:admin2" },
      steps: [
        step(
          "POST /api/login admin2 as another client, wrong password",
          sendJson("POST", "/api/login", { username: "admin2", password: "nope" }),
        ),
        step(
          "POST /api/login user, wrong password",
          sendJson("POST", "/api/login", { ...USER, password: "nope" }),
        ),
        step("POST /api/login user (held)", sendJson("POST", "/api/login", USER), {
          capture: { binding: "json:mfaBinding" },
        }),
        step("GET /admin/api/mfa/escalations", getJson("/admin/api/mfa/escalations", { bearer: true }), {
          actor: "admin2",
          capture: { id: "json:0/id" },
        }),
        step(
          "POST reject",
          sendJson("POST", "/admin/api/mfa/escalations/{{id}}/reject", {}, { bearer: true }),
          { actor: "admin2" },
        ),
        step("GET the poll (rejected)", getJson(POLL, { headers: { "x-mfa-binding": "{{binding}}" } })),
      ],
    },
    {
      name: "held sign-in, approved by admin2",
      cookies: false,
      given: { admin2: "bearer:admin2" },
      steps: [
        step(
          "POST /api/login user, wrong password",
          sendJson("POST", "/api/login", { ...USER, password: "nope" }),
        ),
        step("POST /api/login user (held)", sendJson("POST", "/api/login", USER), {
          capture: { binding: "json:mfaBinding" },
        }),
        step("GET the poll", getJson(POLL, { headers: { "x-mfa-binding": "{{binding}}" } })),
        step("GET the poll without the binding", getJson(POLL)),
        step("GET the poll with a wrong binding", getJson(POLL, { headers: { "x-mfa-binding": "abc.def" } })),
        step("GET /admin/api/mfa/escalations anonymous", getJson("/admin/api/mfa/escalations")),
        step("GET /admin/api/mfa/escalations", getJson("/admin/api/mfa/escalations", { bearer: true }), {
          actor: "admin2",
          capture: { id: "json:0/id" },
        }),
        step(
          "PUT /admin/api/mfa/escalations (wrong method)",
          sendJson("PUT", "/admin/api/mfa/escalations", {}, { bearer: true }),
          {
            actor: "admin2",
          },
        ),
        step(
          "POST approve, unknown id",
          sendJson("POST", "/admin/api/mfa/escalations/unknown/approve", {}, { bearer: true }),
          {
            actor: "admin2",
          },
        ),
        step("POST approve anonymous", sendJson("POST", "/admin/api/mfa/escalations/{{id}}/approve", {})),
        ...hostileSteps(
          "GET /admin/api/mfa/escalations",
          getJson("/admin/api/mfa/escalations", { bearer: true }),
          "admin2",
        ),
        step(
          "POST approve",
          sendJson("POST", "/admin/api/mfa/escalations/{{id}}/approve", {}, { bearer: true }),
          { actor: "admin2" },
        ),
        step(
          "POST approve again",
          sendJson("POST", "/admin/api/mfa/escalations/{{id}}/approve", {}, { bearer: true }),
          { actor: "admin2" },
        ),
        step("GET the poll (signed in)", getJson(POLL, { headers: { "x-mfa-binding": "{{binding}}" } }), {
          capture: { access: "json:accessToken" },
        }),
        step("GET the poll again", getJson(POLL, { headers: { "x-mfa-binding": "{{binding}}" } })),
        step("GET /api/me", getJson("/api/me", { headers: { authorization: "Bearer {{access}}" } })),
        step(
          "GET /admin/api/mfa/escalations as user",
          getJson("/admin/api/mfa/escalations", { headers: { authorization: "Bearer {{access}}" } }),
        ),
      ],
    },
    {
      name: "session flow: held form sign-in of a new user",
      given: { admin2: "bearer:admin2" },
      steps: [
        step("POST /admin/api/users eve", sendJson("POST", "/admin/api/users", EVE, { bearer: true }), {
          actor: "admin2",
        }),
        step(
          "GET /login",
          { method: "GET", path: "/login", headers: { accept: "text/html" } },
          { capture: { csrf: "html:csrf" } },
        ),
        step("POST /login eve, wrong password", {
          method: "POST",
          path: "/login",
          form: { ...EVE, password: "nope", _csrf: "{{csrf}}" },
          headers: { accept: "application/json" },
        }),
        step("POST /login eve, Accept JSON (held)", {
          method: "POST",
          path: "/login",
          form: { ...EVE, _csrf: "{{csrf}}" },
          headers: { accept: "application/json" },
        }),
        step("GET /api/mfa/escalation (the cookie binds it)", getJson("/api/mfa/escalation")),
        step("POST /api/mfa/escalation without a CSRF token", sendJson("POST", "/api/mfa/escalation", {})),
        step("GET /admin/api/mfa/escalations", getJson("/admin/api/mfa/escalations", { bearer: true }), {
          actor: "admin2",
          capture: { id: "json:0/id" },
        }),
        step(
          "POST approve",
          sendJson("POST", "/admin/api/mfa/escalations/{{id}}/approve", {}, { bearer: true }),
          { actor: "admin2" },
        ),
        step("GET /api/mfa/escalation (signed in)", getJson("/api/mfa/escalation")),
        step("GET /api/me", getJson("/api/me")),
      ],
    },
  ],
};
