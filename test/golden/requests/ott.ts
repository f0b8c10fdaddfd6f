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

/** One-time-token (magic link) sign-in: generation, the submit page, processing. */
export const ott: GoldenGroup = {
  name: "ott",
  description: "POST /ott/generate, GET /login/ott, POST /login/ott (magic link) on the OTT session chain",
  scenarios: [
    {
      name: "OTT generate → read the outbox → login",
      steps: [
        step("GET /login/ott", getPage("/login/ott"), { capture: { csrf: "html:csrf" } }),
        step("POST /ott/generate", postForm("/ott/generate", { username: "user", _csrf: "{{csrf}}" })),
        { name: "the magic link in the outbox", outbox: { username: "user" }, capture: { token: "token" } },
        step("GET /login/ott?sent", getPage("/login/ott?sent")),
        step(
          "GET /login/ott?token= (the link: a page, the token is not spent)",
          getPage("/login/ott?token={{token}}"),
          {
            capture: { csrf2: "html:csrf" },
          },
        ),
        step(
          "POST /login/ott with the token",
          postForm("/login/ott", { token: "{{token}}", _csrf: "{{csrf2}}" }),
        ),
        step("GET /api/me", getJson("/api/me")),
        step("GET /login/ott signed in", getPage("/login/ott"), { capture: { csrf3: "html:csrf" } }),
        step(
          "POST /login/ott with the spent token",
          postForm("/login/ott", { token: "{{token}}", _csrf: "{{csrf3}}" }),
        ),
      ],
    },
    {
      name: "JSON client: generate and sign in",
      steps: [
        step("GET /login/ott", getPage("/login/ott"), { capture: { csrf: "html:csrf" } }),
        step(
          "POST /ott/generate JSON",
          sendJson(
            "POST",
            "/ott/generate",
            { username: "user" },
            { headers: { "x-csrf-token": "{{csrf}}" } },
          ),
        ),
        { name: "the magic link in the outbox", outbox: { username: "user" }, capture: { token: "token" } },
        step(
          "POST /login/ott JSON, wrong token",
          sendJson(
            "POST",
            "/login/ott",
            { token: "wrong-token" },
            { headers: { "x-csrf-token": "{{csrf}}" } },
          ),
        ),
        step(
          "POST /login/ott JSON, the token with another username",
          sendJson(
            "POST",
            "/login/ott",
            { token: "{{token}}", username: "admin2" },
            { headers: { "x-csrf-token": "{{csrf}}" } },
          ),
        ),
        step(
          "POST /login/ott JSON, the token after the mismatched attempt",
          sendJson("POST", "/login/ott", { token: "{{token}}" }, { headers: { "x-csrf-token": "{{csrf}}" } }),
        ),
        step(
          "POST /ott/generate JSON again",
          sendJson(
            "POST",
            "/ott/generate",
            { username: "user" },
            { headers: { "x-csrf-token": "{{csrf}}" } },
          ),
        ),
        { name: "the new magic link", outbox: { username: "user" }, capture: { token2: "token" } },
        step(
          "POST /login/ott JSON",
          sendJson(
            "POST",
            "/login/ott",
            { token: "{{token2}}" },
            { headers: { "x-csrf-token": "{{csrf}}" } },
          ),
        ),
        step("GET /api/me", getJson("/api/me")),
      ],
    },
    {
      name: "generation: unknown user, bad requests",
      steps: [
        step("GET /login/ott", getPage("/login/ott"), { capture: { csrf: "html:csrf" } }),
        step(
          "POST /ott/generate, unknown user (same answer, nothing sent)",
          postForm("/ott/generate", { username: "nobody", _csrf: "{{csrf}}" }),
        ),
        step("POST /ott/generate without a CSRF token", postForm("/ott/generate", { username: "user" })),
        step("POST /ott/generate, username missing", postForm("/ott/generate", { _csrf: "{{csrf}}" })),
        ...badJsonBodies("POST /ott/generate", "POST", "/ott/generate", {
          headers: { "x-csrf-token": "{{csrf}}" },
        }),
        step("GET /ott/generate (wrong method)", getPage("/ott/generate")),
        ...hostileSteps(
          "POST /ott/generate, unknown user",
          postForm("/ott/generate", { username: "nobody", _csrf: "{{csrf}}" }),
        ),
      ],
    },
    {
      name: "processing: bad requests",
      steps: [
        step("GET /login/ott", getPage("/login/ott"), { capture: { csrf: "html:csrf" } }),
        step("POST /login/ott without a CSRF token", postForm("/login/ott", { token: "abc" })),
        step("POST /login/ott, token missing", postForm("/login/ott", { _csrf: "{{csrf}}" })),
        step("POST /login/ott, unknown token", postForm("/login/ott", { token: "abc", _csrf: "{{csrf}}" })),
        ...badJsonBodies("POST /login/ott", "POST", "/login/ott", {
          headers: { "x-csrf-token": "{{csrf}}" },
        }),
        step("DELETE /login/ott (wrong method)", {
          method: "DELETE",
          path: "/login/ott",
          headers: { "x-csrf-token": "{{csrf}}" },
        }),
        ...hostileSteps("GET /login/ott", getPage("/login/ott")),
        ...hostileSteps(
          "POST /login/ott, unknown token",
          postForm("/login/ott", { token: "abc", _csrf: "{{csrf}}" }),
        ),
      ],
    },
  ],
};
