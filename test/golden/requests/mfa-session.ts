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

const ADMIN = { username: "admin", password: "admin" };
const PAGES = [
  "/mfa/select-factor",
  "/mfa/ott/request-code-ui",
  "/mfa/challenge/ott",
  "/mfa/challenge/passkey",
  "/mfa/failure?state=MFA_CANCELLED",
  "/mfa/configure",
];
const X = (csrf: string) => ({ headers: { "x-csrf-token": `{{${csrf}}}` } });

/** The session MFA flow (form primary, OTT factor): its API and pages. */
export const mfaSession: GoldenGroup = {
  name: "mfa-session",
  description:
    "The session MFA flow: POST /login (admin), /api/mfa/config, /api/mfa/status, /mfa/select-factor, " +
    "/mfa/ott/generate-code, /login/mfa-ott, /mfa/cancel, /mfa/webauthn/authenticate/options, /login/mfa-webauthn, the MFA pages",
  scenarios: [
    {
      name: "browser: form login → MFA code → GET /admin",
      steps: [
        step("GET /admin anonymous (saved, sent to the login page)", getPage("/admin")),
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step("POST /login admin", postForm("/login", { ...ADMIN, _csrf: "{{csrf}}" })),
        {
          name: "the code in the outbox",
          outbox: { username: "admin", channel: "mfa-code" },
          capture: { code: "token" },
        },
        step("GET /api/me before the code", getJson("/api/me")),
        step("GET /mfa/challenge/ott", getPage("/mfa/challenge/ott"), { capture: { csrf2: "html:csrf" } }),
        step(
          "POST /login/mfa-ott, wrong code",
          postForm("/login/mfa-ott", { token: "{{!code}}", _csrf: "{{csrf2}}" }),
        ),
        step("GET /mfa/challenge/ott?error", getPage("/mfa/challenge/ott?error")),
        step("POST /login/mfa-ott without a CSRF token", postForm("/login/mfa-ott", { token: "{{code}}" })),
        step("POST /login/mfa-ott", postForm("/login/mfa-ott", { token: "{{code}}", _csrf: "{{csrf2}}" })),
        step("GET /admin", getPage("/admin")),
        step("GET /api/me", getJson("/api/me")),
        step("GET /mfa/challenge/ott after the flow", getPage("/mfa/challenge/ott")),
      ],
    },
    {
      name: "JSON: MFA required, status, config, resend, select, wrong code, code",
      steps: [
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step(
          "POST /login admin, Accept JSON",
          postForm("/login", { ...ADMIN, _csrf: "{{csrf}}" }, { headers: { accept: "application/json" } }),
          {
            capture: { mfa: "json:mfaSessionId" },
          },
        ),
        {
          name: "the first code",
          outbox: { username: "admin", channel: "mfa-code" },
          capture: { code1: "token" },
        },
        step("GET /api/mfa/status", getJson("/api/mfa/status")),
        step("GET /api/mfa/config", getJson("/api/mfa/config")),
        step("GET /mfa/challenge/ott", getPage("/mfa/challenge/ott"), { capture: { csrf2: "html:csrf" } }),
        step("POST /mfa/ott/generate-code", sendJson("POST", "/mfa/ott/generate-code", {}, X("csrf2"))),
        {
          name: "the second code",
          outbox: { username: "admin", channel: "mfa-code" },
          capture: { code2: "token" },
        },
        step(
          "POST /login/mfa-ott, the first (dead) code",
          sendJson("POST", "/login/mfa-ott", { token: "{{code1}}" }, X("csrf2")),
        ),
        step(
          "POST /mfa/select-factor OTT",
          sendJson("POST", "/mfa/select-factor", { factorType: "OTT" }, X("csrf2")),
        ),
        {
          name: "the third code",
          outbox: { username: "admin", channel: "mfa-code" },
          capture: { code3: "token" },
        },
        step(
          "POST /mfa/select-factor, unknown factor",
          sendJson("POST", "/mfa/select-factor", { factorType: "SMS" }, X("csrf2")),
        ),
        step(
          "POST /mfa/webauthn/authenticate/options (not in PASSKEY_CHALLENGE)",
          sendJson("POST", "/mfa/webauthn/authenticate/options", {}, X("csrf2")),
        ),
        step(
          "POST /login/mfa-webauthn, not an assertion",
          sendJson("POST", "/login/mfa-webauthn", { id: "x" }, X("csrf2")),
        ),
        step(
          "POST /login/mfa-ott, another flow's X-MFA-Session-Id",
          sendJson(
            "POST",
            "/login/mfa-ott",
            { token: "{{code3}}" },
            { headers: { "x-csrf-token": "{{csrf2}}", "x-mfa-session-id": "other" } },
          ),
        ),
        step(
          "POST /login/mfa-ott, wrong code",
          sendJson("POST", "/login/mfa-ott", { token: "{{!code3}}" }, X("csrf2")),
        ),
        step("GET /api/mfa/status after a wrong code", getJson("/api/mfa/status")),
        ...badJsonBodies("POST /login/mfa-ott", "POST", "/login/mfa-ott", X("csrf2")),
        step("GET /login/mfa-ott (wrong method)", getJson("/login/mfa-ott")),
        step(
          "POST /login/mfa-ott, named flow",
          sendJson("POST", "/login/mfa-ott", { token: "{{code3}}", mfaSessionId: "{{mfa}}" }, X("csrf2")),
        ),
        step("GET /api/mfa/status after success", getJson("/api/mfa/status")),
      ],
    },
    {
      name: "the MFA pages during a flow",
      steps: [
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step("POST /login admin", postForm("/login", { ...ADMIN, _csrf: "{{csrf}}" })),
        { name: "the code", outbox: { username: "admin", channel: "mfa-code" } },
        ...PAGES.map((p) => step(`GET ${p}`, getPage(p))),
        step("GET /mfa/failure?state=<script>", getPage("/mfa/failure?state=%3Cscript%3E")),
        ...hostileSteps("GET /mfa/challenge/ott", getPage("/mfa/challenge/ott")),
        step("GET /", getPage("/"), { capture: { csrf2: "html:csrf" } }),
        step(
          "POST /mfa/select-factor OTT (browser)",
          postForm("/mfa/select-factor", { factorType: "OTT", _csrf: "{{csrf2}}" }),
        ),
        step(
          "POST /mfa/ott/generate-code (browser)",
          postForm("/mfa/ott/generate-code", { _csrf: "{{csrf2}}" }),
        ),
        step("POST /mfa/cancel (browser)", postForm("/mfa/cancel", { _csrf: "{{csrf2}}" })),
        step(
          "GET /mfa/failure?state=MFA_CANCELLED after cancel",
          getPage("/mfa/failure?state=MFA_CANCELLED"),
        ),
        step("GET /api/mfa/status after cancel", getJson("/api/mfa/status")),
      ],
    },
    {
      name: "cancel (JSON) and the flow after it",
      steps: [
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step(
          "POST /login admin, Accept JSON",
          postForm("/login", { ...ADMIN, _csrf: "{{csrf}}" }, { headers: { accept: "application/json" } }),
        ),
        { name: "the code", outbox: { username: "admin", channel: "mfa-code" }, capture: { code: "token" } },
        step("GET /mfa/challenge/ott", getPage("/mfa/challenge/ott"), { capture: { csrf2: "html:csrf" } }),
        step("POST /mfa/cancel without a CSRF token", sendJson("POST", "/mfa/cancel", {})),
        step("POST /mfa/cancel", sendJson("POST", "/mfa/cancel", {}, X("csrf2"))),
        step(
          "POST /login/mfa-ott after cancel",
          sendJson("POST", "/login/mfa-ott", { token: "{{code}}" }, X("csrf2")),
        ),
        step(
          "POST /mfa/ott/generate-code after cancel",
          sendJson("POST", "/mfa/ott/generate-code", {}, X("csrf2")),
        ),
      ],
    },
    {
      name: "without a flow",
      steps: [
        ...PAGES.map((p) => step(`GET ${p}`, getPage(p))),
        step("GET /api/mfa/status", getJson("/api/mfa/status")),
        step("GET /api/mfa/config", getJson("/api/mfa/config")),
        step("POST /api/mfa/config (wrong method)", sendJson("POST", "/api/mfa/config", {})),
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step("POST /login/mfa-ott", sendJson("POST", "/login/mfa-ott", { token: "123456" }, X("csrf"))),
        step("POST /mfa/ott/generate-code", sendJson("POST", "/mfa/ott/generate-code", {}, X("csrf"))),
        step(
          "POST /mfa/select-factor",
          sendJson("POST", "/mfa/select-factor", { factorType: "OTT" }, X("csrf")),
        ),
        step("POST /mfa/cancel", sendJson("POST", "/mfa/cancel", {}, X("csrf"))),
        step(
          "POST /mfa/webauthn/authenticate/options",
          sendJson("POST", "/mfa/webauthn/authenticate/options", {}, X("csrf")),
        ),
        step("POST /login/mfa-webauthn", sendJson("POST", "/login/mfa-webauthn", {}, X("csrf"))),
        ...hostileSteps("GET /api/mfa/status", getJson("/api/mfa/status")),
        ...hostileSteps(
          "POST /login/mfa-ott",
          sendJson("POST", "/login/mfa-ott", { token: "123456" }, X("csrf")),
        ),
      ],
    },
    {
      name: "five codes per flow, then 429",
      steps: [
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step(
          "POST /login admin, Accept JSON",
          postForm("/login", { ...ADMIN, _csrf: "{{csrf}}" }, { headers: { accept: "application/json" } }),
        ),
        step("GET /mfa/challenge/ott", getPage("/mfa/challenge/ott"), { capture: { csrf2: "html:csrf" } }),
        ...[2, 3, 4, 5, 6].map((n) =>
          step(
            `POST /mfa/ott/generate-code (code ${n})`,
            sendJson("POST", "/mfa/ott/generate-code", {}, X("csrf2")),
          ),
        ),
      ],
    },
  ],
};
