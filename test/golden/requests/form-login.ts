import type { GoldenGroup } from "../golden-types.js";
import {
  badJsonBodies,
  getJson,
  getPage,
  hostileSteps,
  OVERSIZED,
  postForm,
  step,
} from "./request-builders.js";

const USER = { username: "user", password: "password" };

/** The form chain: the login page, `POST /login`, `POST /logout`. */
export const formLogin: GoldenGroup = {
  name: "form-login",
  description: "GET /login, POST /login (form and JSON clients), POST /logout on the session chain",
  scenarios: [
    {
      name: "login page",
      steps: [
        step("GET /login", getPage("/login")),
        step("GET /login?error", getPage("/login?error")),
        step("GET /login as JSON", getJson("/login")),
        step("HEAD /login", { method: "HEAD", path: "/login" }),
        step("DELETE /login (wrong method)", { method: "DELETE", path: "/login" }),
        ...hostileSteps("GET /login", getPage("/login")),
      ],
    },
    {
      name: "browser: password sign-in, home page, logout",
      steps: [
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step(
          "POST /login, wrong password",
          postForm("/login", { username: "user", password: "nope", _csrf: "{{csrf}}" }),
        ),
        step("POST /login, right password", postForm("/login", { ...USER, _csrf: "{{csrf}}" })),
        step("GET /api/me with the session", getJson("/api/me")),
        step("GET / signed in", getPage("/"), { capture: { csrf2: "html:csrf" } }),
        step("POST /logout with the old CSRF token", postForm("/logout", { _csrf: "{{csrf}}" })),
        step("POST /logout", postForm("/logout", { _csrf: "{{csrf2}}" })),
        step("GET /api/me after logout", getJson("/api/me")),
        step("POST /logout again (no session)", postForm("/logout", { _csrf: "{{csrf2}}" })),
      ],
    },
    {
      name: "JSON client: form sign-in and logout",
      steps: [
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step(
          "POST /login form, Accept JSON, wrong password",
          postForm(
            "/login",
            { username: "user", password: "nope", _csrf: "{{csrf}}" },
            { headers: { accept: "application/json" } },
          ),
        ),
        step("POST /login JSON body with X-CSRF-TOKEN", {
          method: "POST",
          path: "/login",
          json: USER,
          headers: { accept: "application/json", "x-csrf-token": "{{csrf}}" },
        }),
        step("GET /", getPage("/"), { capture: { csrf2: "html:csrf" } }),
        step("POST /logout as XHR", {
          method: "POST",
          path: "/logout",
          headers: { "x-requested-with": "XMLHttpRequest", "x-csrf-token": "{{csrf2}}" },
        }),
      ],
    },
    {
      name: "bad sign-in requests",
      steps: [
        step("GET /login", getPage("/login"), { capture: { csrf: "html:csrf" } }),
        step("POST /login without a CSRF token", postForm("/login", USER)),
        step("POST /login with a wrong CSRF token", postForm("/login", { ...USER, _csrf: "not-the-token" })),
        step("POST /login, missing password", postForm("/login", { username: "user", _csrf: "{{csrf}}" })),
        step("POST /login, missing fields", postForm("/login", { _csrf: "{{csrf}}" })),
        step(
          "POST /login, unknown user",
          postForm("/login", { username: "nobody", password: "x", _csrf: "{{csrf}}" }),
        ),
        ...badJsonBodies("POST /login", "POST", "/login", { headers: { "x-csrf-token": "{{csrf}}" } }),
        step("POST /login, oversized form", {
          method: "POST",
          path: "/login",
          bytes: OVERSIZED,
          headers: { "content-type": "application/x-www-form-urlencoded", "x-csrf-token": "{{csrf}}" },
        }),
        step(
          "PUT /login (wrong method)",
          postForm("/login", { ...USER, _csrf: "{{csrf}}" }, { method: "PUT" }),
        ),
        ...hostileSteps(
          "POST /login, unknown user",
          postForm("/login", { username: "nobody", password: "x", _csrf: "{{csrf}}" }),
        ),
      ],
    },
    {
      name: "logout edge cases",
      given: { user: "session:user" },
      steps: [
        step("POST /logout without a CSRF token", postForm("/logout", {}), { actor: "user" }),
        step("GET /logout (wrong method)", getPage("/logout"), { actor: "user" }),
        step("GET /api/me still signed in", getJson("/api/me"), { actor: "user" }),
        ...hostileSteps("POST /logout, anonymous", postForm("/logout", {})),
        step("POST /logout", postForm("/logout", { _csrf: "{{user.csrf}}" }), { actor: "user" }),
      ],
    },
  ],
};
