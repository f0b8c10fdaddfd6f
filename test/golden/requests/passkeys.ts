import type { GoldenGroup } from "../golden-types.js";
import { badJsonBodies, csrf, getJson, getPage, hostileSteps, sendJson, step } from "./request-builders.js";

/** The CSRF header with the token captured from the anonymous session's page. */
const X = { headers: { "x-csrf-token": "{{csrf}}" } };

/** Passkey sign-in options and processing, passkey management, the `/passkeys` page and script. */
export const passkeys: GoldenGroup = {
  name: "passkeys",
  description:
    "POST /webauthn/authenticate/options, POST /login/webauthn, /webauthn/register/options, /webauthn/register, " +
    "GET /webauthn/credentials, DELETE /webauthn/register/{id}, GET /passkeys, GET /webauthn/passkeys.js",
  scenarios: [
    {
      name: "sign-in options and processing (anonymous)",
      steps: [
        step("GET /passkeys (the anonymous session's CSRF token)", getPage("/passkeys"), {
          capture: { csrf: "html:csrf" },
        }),
        step(
          "POST /webauthn/authenticate/options without a CSRF token",
          sendJson("POST", "/webauthn/authenticate/options", {}),
        ),
        step(
          "POST /webauthn/authenticate/options {}",
          sendJson("POST", "/webauthn/authenticate/options", {}, X),
        ),
        step(
          "POST /webauthn/authenticate/options with a username (same answer)",
          sendJson("POST", "/webauthn/authenticate/options", { username: "user" }, X),
        ),
        step("GET /webauthn/authenticate/options (wrong method)", getJson("/webauthn/authenticate/options")),
        ...badJsonBodies("POST /webauthn/authenticate/options", "POST", "/webauthn/authenticate/options", X),
        step(
          "POST /login/webauthn, not an assertion",
          sendJson("POST", "/login/webauthn", { id: "x", rawId: "x", type: "public-key", response: {} }, X),
        ),
        step("POST /login/webauthn without a CSRF token", sendJson("POST", "/login/webauthn", { id: "x" })),
        ...badJsonBodies("POST /login/webauthn", "POST", "/login/webauthn", X),
        step("GET /login/webauthn (wrong method)", getJson("/login/webauthn")),
        ...hostileSteps(
          "POST /webauthn/authenticate/options",
          sendJson("POST", "/webauthn/authenticate/options", {}, X),
        ),
        ...hostileSteps("POST /login/webauthn", sendJson("POST", "/login/webauthn", { id: "x" }, X)),
      ],
    },
    {
      name: "management, anonymous",
      steps: [
        step("GET /passkeys", getPage("/passkeys")),
        step("GET /webauthn/passkeys.js", { method: "GET", path: "/webauthn/passkeys.js" }),
        step("GET /webauthn/credentials", getJson("/webauthn/credentials")),
        step("POST /webauthn/register/options", sendJson("POST", "/webauthn/register/options", {})),
        step("POST /webauthn/register", sendJson("POST", "/webauthn/register", { response: {} })),
        step("DELETE /webauthn/register/abc", {
          method: "DELETE",
          path: "/webauthn/register/abc",
          headers: { accept: "application/json" },
        }),
      ],
    },
    {
      name: "management, signed in",
      given: { user: "session:user", bearer: "bearer:user" },
      steps: [
        step("GET /passkeys", getPage("/passkeys"), { actor: "user" }),
        step("GET /webauthn/credentials", getJson("/webauthn/credentials"), { actor: "user" }),
        step(
          "GET /webauthn/credentials with a bearer token",
          getJson("/webauthn/credentials", { bearer: true }),
          { actor: "bearer" },
        ),
        step(
          "POST /webauthn/register/options",
          sendJson("POST", "/webauthn/register/options", {}, { headers: csrf("user") }),
          { actor: "user" },
        ),
        step(
          "POST /webauthn/register/options without a CSRF token",
          sendJson("POST", "/webauthn/register/options", {}),
          {
            actor: "user",
          },
        ),
        step(
          "POST /webauthn/register, not an attestation",
          sendJson("POST", "/webauthn/register", { response: { id: "x" } }, { headers: csrf("user") }),
          { actor: "user" },
        ),
        ...badJsonBodies(
          "POST /webauthn/register",
          "POST",
          "/webauthn/register",
          { headers: csrf("user") },
          "user",
        ),
        step(
          "DELETE /webauthn/register/unknown",
          {
            method: "DELETE",
            path: "/webauthn/register/unknown",
            headers: { accept: "application/json", ...csrf("user") },
          },
          { actor: "user" },
        ),
        step(
          "PUT /webauthn/credentials (wrong method)",
          sendJson("PUT", "/webauthn/credentials", {}, { headers: csrf("user") }),
          {
            actor: "user",
          },
        ),
        ...hostileSteps("GET /webauthn/credentials", getJson("/webauthn/credentials"), "user"),
        ...hostileSteps("GET /passkeys", getPage("/passkeys"), "user"),
      ],
    },
    {
      name: "register a passkey, sign in with it, delete it",
      given: { user: "session:user" },
      steps: [
        { name: "register", passkey: "register", actor: "user", headers: csrf("user") },
        step("GET /webauthn/credentials", getJson("/webauthn/credentials"), {
          actor: "user",
          capture: { cred: "json:0/id" },
        }),
        step("GET /passkeys (anonymous)", getPage("/passkeys"), { capture: { csrf: "html:csrf" } }),
        { name: "sign in", passkey: "sign-in", headers: X.headers },
        step("GET /api/me", getJson("/api/me")),
        step(
          "DELETE /webauthn/register/{id} without a CSRF token",
          { method: "DELETE", path: "/webauthn/register/{{cred}}", headers: { accept: "application/json" } },
          { actor: "user" },
        ),
        step("GET /webauthn/credentials, signed in with the passkey", getJson("/webauthn/credentials")),
        step(
          "DELETE /webauthn/register/{id}",
          {
            method: "DELETE",
            path: "/webauthn/register/{{cred}}",
            headers: { accept: "application/json", ...csrf("user") },
          },
          { actor: "user" },
        ),
        step("GET /webauthn/credentials after", getJson("/webauthn/credentials"), { actor: "user" }),
        step("GET /passkeys (a new anonymous session)", getPage("/passkeys"), {
          actor: "stranger",
          capture: { csrf2: "html:csrf" },
        }),
        {
          name: "sign in with the deleted passkey",
          passkey: "sign-in",
          actor: "stranger",
          headers: { "x-csrf-token": "{{csrf2}}" },
        },
      ],
    },
    {
      name: "admin's passkey sign-in continues in the MFA flow (no bypass)",
      given: { admin: "session:admin" },
      steps: [
        { name: "register", passkey: "register", actor: "admin", headers: csrf("admin") },
        step("GET /passkeys (anonymous)", getPage("/passkeys"), { capture: { csrf: "html:csrf" } }),
        { name: "sign in", passkey: "sign-in", headers: X.headers },
        { name: "the code", outbox: { username: "admin", channel: "mfa-code" } },
        step("GET /api/me before the code", getJson("/api/me")),
      ],
    },
  ],
};
