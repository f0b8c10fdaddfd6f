import type { GoldenGroup } from "../golden-types.js";
import { badJsonBodies, getJson, hostileSteps, sendJson, step } from "./request-builders.js";

const P = "/api/token-mfa";
const ADMIN = { username: "admin", password: "admin" };
/** The two headers of every later step of an API MFA flow. */
const BOUND = { "x-mfa-session-id": "{{mfa}}", "x-mfa-binding": "{{binding}}" };
const bound = { headers: BOUND };

/** The API's MFA flow (`mfa_api`: REST primary, OTT, tokens) under `/api/token-mfa`. */
export const mfaApi: GoldenGroup = {
  name: "mfa-api",
  description:
    "The API MFA flow under /api/token-mfa: POST /api/login (admin), /api/mfa/config, /api/mfa/status, " +
    "/mfa/select-factor, /mfa/ott/generate-code, /login/mfa-ott, /mfa/cancel with X-MFA-Session-Id and X-MFA-Binding",
  scenarios: [
    {
      name: "a client that keeps cookies: the PLATFORM_MFA cookie binds without the headers",
      steps: [
        step("POST /api/login admin", sendJson("POST", "/api/login", ADMIN)),
        { name: "the code", outbox: { username: "admin", channel: "mfa-code" }, capture: { code: "token" } },
        step("POST code with the cookie only", sendJson("POST", `${P}/login/mfa-ott`, { token: "{{code}}" })),
      ],
    },
    {
      name: "the flow's own primary URL",
      cookies: false,
      steps: [
        step("POST /api/token-mfa/api/mfa/login admin", sendJson("POST", `${P}/api/mfa/login`, ADMIN)),
        step(
          "POST /api/token-mfa/api/mfa/login user",
          sendJson("POST", `${P}/api/mfa/login`, { username: "user", password: "password" }),
        ),
        step(
          "POST /api/token-mfa/api/mfa/login, wrong password",
          sendJson("POST", `${P}/api/mfa/login`, { ...ADMIN, password: "nope" }),
        ),
        ...badJsonBodies("POST /api/token-mfa/api/mfa/login", "POST", `${P}/api/mfa/login`),
        step("GET /api/token-mfa/api/mfa/login (wrong method)", getJson(`${P}/api/mfa/login`)),
      ],
    },
    {
      name: "REST login → MFA code with the two headers → tokens",
      cookies: false,
      steps: [
        step("POST /api/login admin", sendJson("POST", "/api/login", ADMIN), {
          capture: { mfa: "json:mfaSessionId", binding: "json:mfaBinding" },
        }),
        { name: "the code", outbox: { username: "admin", channel: "mfa-code" }, capture: { code: "token" } },
        step("GET status", getJson(`${P}/api/mfa/status`, bound)),
        step("GET config", getJson(`${P}/api/mfa/config`)),
        step(
          "POST code, wrong binding",
          sendJson(
            "POST",
            `${P}/login/mfa-ott`,
            { token: "{{code}}" },
            {
              headers: { "x-mfa-session-id": "{{mfa}}", "x-mfa-binding": "{{mfa}}.wrong" },
            },
          ),
        ),
        step("POST code, no binding", sendJson("POST", `${P}/login/mfa-ott`, { token: "{{code}}" })),
        step(
          "POST code, session id only",
          sendJson(
            "POST",
            `${P}/login/mfa-ott`,
            { token: "{{code}}" },
            {
              headers: { "x-mfa-session-id": "{{mfa}}" },
            },
          ),
        ),
        step("POST code, wrong code", sendJson("POST", `${P}/login/mfa-ott`, { token: "{{!code}}" }, bound)),
        ...badJsonBodies("POST code", "POST", `${P}/login/mfa-ott`, bound),
        step("GET code URL (wrong method)", getJson(`${P}/login/mfa-ott`, bound)),
        step("POST code", sendJson("POST", `${P}/login/mfa-ott`, { token: "{{code}}" }, bound), {
          capture: { access: "json:accessToken" },
        }),
        step(
          "POST code again (flow finished)",
          sendJson("POST", `${P}/login/mfa-ott`, { token: "{{code}}" }, bound),
        ),
        step(
          "GET /api/me with the token",
          getJson("/api/me", { headers: { authorization: "Bearer {{access}}" } }),
        ),
      ],
    },
    {
      name: "resend, select, cancel",
      cookies: false,
      steps: [
        step("POST /api/login admin", sendJson("POST", "/api/login", ADMIN), {
          capture: { mfa: "json:mfaSessionId", binding: "json:mfaBinding" },
        }),
        { name: "the first code", outbox: { username: "admin", channel: "mfa-code" } },
        step("POST generate-code", sendJson("POST", `${P}/mfa/ott/generate-code`, {}, bound)),
        { name: "the second code", outbox: { username: "admin", channel: "mfa-code" } },
        step(
          "POST select-factor OTT",
          sendJson("POST", `${P}/mfa/select-factor`, { factorType: "OTT" }, bound),
        ),
        { name: "the third code", outbox: { username: "admin", channel: "mfa-code" } },
        step(
          "POST select-factor PASSKEY (not in this flow)",
          sendJson("POST", `${P}/mfa/select-factor`, { factorType: "PASSKEY" }, bound),
        ),
        step("POST cancel", sendJson("POST", `${P}/mfa/cancel`, {}, bound)),
        step("GET status after cancel", getJson(`${P}/api/mfa/status`, bound)),
        step("POST generate-code after cancel", sendJson("POST", `${P}/mfa/ott/generate-code`, {}, bound)),
      ],
    },
    {
      name: "without a flow, and hostile paths",
      cookies: false,
      steps: [
        step("GET status", getJson(`${P}/api/mfa/status`)),
        step("POST generate-code", sendJson("POST", `${P}/mfa/ott/generate-code`, {})),
        step("POST cancel", sendJson("POST", `${P}/mfa/cancel`, {})),
        step(
          "POST code with a made-up binding",
          sendJson(
            "POST",
            `${P}/login/mfa-ott`,
            { token: "123456" },
            {
              headers: { "x-mfa-session-id": "abc", "x-mfa-binding": "abc.def" },
            },
          ),
        ),
        step("GET /api/token-mfa/api/mfa/escalation (no escalation)", getJson(`${P}/api/mfa/escalation`)),
        ...hostileSteps("GET config", getJson(`${P}/api/mfa/config`)),
        ...hostileSteps("POST code", sendJson("POST", `${P}/login/mfa-ott`, { token: "123456" })),
      ],
    },
  ],
};
