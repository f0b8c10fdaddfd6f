import type { GoldenGroup } from "../golden-types.js";
import { getJson, getPage, hostileSteps, sendJson, step } from "./request-builders.js";

const XHR = { accept: "application/json", "x-requested-with": "XMLHttpRequest" };

/** Step-up on `/account/**` (session) and `/api/account/**` (bearer). */
export const stepUp: GoldenGroup = {
  name: "step-up",
  description:
    "GET/POST /account/security (session) and /api/account/security (bearer): 401 MFA_CHALLENGE_REQUIRED, the code, the upgraded sign-in",
  scenarios: [
    {
      name: "anonymous",
      steps: [
        step("GET /account/security, browser", getPage("/account/security")),
        step("GET /account/security, XHR", getJson("/account/security", { headers: XHR })),
        step("GET /api/account/security", getJson("/api/account/security")),
        step("POST /api/account/security", sendJson("POST", "/api/account/security", { a: 1 })),
      ],
    },
    {
      name: "session: challenge → code → the page → 6 minutes later",
      given: { user: "session:user" },
      steps: [
        step("GET /account/security, browser (redirected)", getPage("/account/security"), { actor: "user" }),
        { name: "the code", outbox: { username: "user", channel: "mfa-code" } },
        step(
          "GET /account/security, XHR (the same challenge)",
          getJson("/account/security", { headers: XHR }),
          { actor: "user" },
        ),
        step("GET /mfa/challenge/ott", getPage("/mfa/challenge/ott"), { actor: "user" }),
        step("GET /api/mfa/status", getJson("/api/mfa/status"), { actor: "user" }),
        { name: "6 seconds pass (past the 5 s sharing window)", advanceClock: "PT6S" },
        step("GET /account/security, XHR (a new challenge)", getJson("/account/security", { headers: XHR }), {
          actor: "user",
        }),
        {
          name: "the new code",
          outbox: { username: "user", channel: "mfa-code" },
          capture: { code: "token" },
        },
        step(
          "POST /login/mfa-ott without the session's CSRF token",
          sendJson("POST", "/login/mfa-ott", { token: "{{code}}" }),
          { actor: "user" },
        ),
        step(
          "POST /login/mfa-ott",
          sendJson(
            "POST",
            "/login/mfa-ott",
            { token: "{{code}}" },
            { headers: { "x-csrf-token": "{{user.csrf}}" } },
          ),
          {
            actor: "user",
            capture: { csrf: "json:csrfToken" },
          },
        ),
        step("GET /account/security", getJson("/account/security", { headers: XHR }), { actor: "user" }),
        step(
          "POST /account/security with an Idempotency-Key",
          sendJson(
            "POST",
            "/account/security",
            { theme: "dark" },
            { headers: { "x-csrf-token": "{{csrf}}", "idempotency-key": "k-1" } },
          ),
          { actor: "user" },
        ),
        step(
          "POST /account/security without a CSRF token",
          sendJson("POST", "/account/security", { theme: "dark" }),
          { actor: "user" },
        ),
        step("GET /api/me", getJson("/api/me"), { actor: "user" }),
        ...hostileSteps("GET /account/security", getJson("/account/security", { headers: XHR }), "user"),
        { name: "6 minutes pass", advanceClock: "PT6M" },
        step(
          "GET /account/security, XHR (the factor is too old)",
          getJson("/account/security", { headers: XHR }),
          { actor: "user" },
        ),
      ],
    },
    {
      name: "bearer: challenge → code with the two headers and the token → new tokens",
      cookies: false,
      given: { bearer: "bearer:user" },
      steps: [
        step("GET /api/account/security", getJson("/api/account/security", { bearer: true }), {
          actor: "bearer",
          capture: {
            mfa: "json:mfaSessionId",
            binding: "json:mfaBinding",
            verify: "json:endpoints/verifyOtt",
          },
        }),
        { name: "the code", outbox: { username: "user", channel: "mfa-code" }, capture: { code: "token" } },
        step(
          "GET /api/account/security, Accept text/html (never redirected)",
          getPage("/api/account/security", { bearer: true }),
          {
            actor: "bearer",
          },
        ),
        step(
          "POST the code without the bearer token",
          sendJson(
            "POST",
            "{{verify}}",
            { token: "{{code}}" },
            { headers: { "x-mfa-session-id": "{{mfa}}", "x-mfa-binding": "{{binding}}" } },
          ),
        ),
        step(
          "POST the code",
          sendJson(
            "POST",
            "{{verify}}",
            { token: "{{code}}" },
            {
              bearer: true,
              headers: { "x-mfa-session-id": "{{mfa}}", "x-mfa-binding": "{{binding}}" },
            },
          ),
          { actor: "bearer", capture: { access: "json:accessToken" } },
        ),
        step(
          "GET /api/account/security with the new token",
          getJson("/api/account/security", { headers: { authorization: "Bearer {{access}}" } }),
        ),
        step(
          "POST /api/account/security with the new token",
          sendJson(
            "POST",
            "/api/account/security",
            { theme: "dark" },
            { headers: { authorization: "Bearer {{access}}" } },
          ),
        ),
        step(
          "GET /api/me with the new token",
          getJson("/api/me", { headers: { authorization: "Bearer {{access}}" } }),
        ),
        step(
          "GET /api/account/security with the old token",
          getJson("/api/account/security", { bearer: true }),
          { actor: "bearer" },
        ),
        ...hostileSteps(
          "GET /api/account/security",
          getJson("/api/account/security", { headers: { authorization: "Bearer {{access}}" } }),
        ),
      ],
    },
  ],
};
