import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Platform } from "@keyward/core";
import { UserRepository } from "@keyward/core/ports";
import { RouteTable } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CapturingLogger } from "../../../adapters-http/src/test-support.js";
import { LOW_COST_SCRYPT } from "../../../../test/support/low-cost-scrypt.js";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { parseHost } from "../command-line/parse-options.js";
import { runCli } from "../command-line/run-cli.js";
import { PLATFORM_COMMANDS } from "../commands/index.js";
import { setupLines } from "./setup-announcement.js";

// `platform serve --config f` in this process, as the CLI runs it: one start for the file.
const logger = new CapturingLogger();
(globalThis as { serveTestLogger?: unknown }).serveTestLogger = logger;
const dir = mkdtempSync(join(tmpdir(), "platform-serve-"));
const config = join(dir, "host.mjs");
writeFileSync(
  config,
  `export default {
  properties: ${JSON.stringify({ ...LOW_COST_SCRYPT, "platform.policy.no-match-decision": "DENY" })},
  register(c) { c.registerInstance(Symbol.for("platform.Logger"), globalThis.serveTestLogger); },
  routes(routes, platform) {
    globalThis.servePlatform = platform;
    routes.add({ method: "GET", path: "/hello", handler: () => ({ from: "host" }) });
  },
};\n`,
);

const io = memoryCliIo([], {});
let exit: Promise<number>;
let url = "";
let token = "";

/** A session cookie and the CSRF token the setup page carries. */
async function setupSession(): Promise<{ cookie: string; csrf: string; page: string }> {
  const page = await fetch(`${url}/setup`);
  const html = await page.text();
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
  return { cookie, csrf, page: html };
}

async function postSetup(body: string, type = "application/json", withCsrf = true) {
  const { cookie, csrf } = await setupSession();
  const headers: Record<string, string> = { "content-type": type, cookie };
  if (withCsrf) headers["x-csrf-token"] = csrf;
  return fetch(`${url}/setup`, { method: "POST", headers, body });
}

beforeAll(async () => {
  exit = runCli(["serve", "--config", config, "--port", "0", "--host", "127.0.0.1"], PLATFORM_COMMANDS, io);
  for (let i = 0; i < 600 && url === ""; i++) {
    await new Promise((r) => setTimeout(r, 50));
    url = /\((http:\/\/localhost:\d+)\)/.exec(io.stdout.join("\n"))?.[1] ?? "";
  }
  token = /^ {4}(\S{43})$/m.exec(io.stdout.join("\n"))?.[1] ?? "";
}, 60_000);
afterAll(async () => {
  io.signal("SIGTERM");
  await exit;
});

describe("platform serve --config", () => {
  it("runs the host's configuration on its own: no demo users or routes, its properties and routes, the in-memory store named; /setup stays open under DENY", async () => {
    const out = io.stdout.join("\n");
    expect(out).toContain("store: in memory");
    expect(out).not.toMatch(/admin \/ admin|Users:/);
    // The configuration's properties hold: under DENY the host's route without a policy is closed.
    const hello = await fetch(`${url}/hello`, { redirect: "manual" });
    expect([hello.status, hello.headers.get("location")]).toEqual([302, "/login"]);
    const platform = (globalThis as { servePlatform?: Platform }).servePlatform!;
    const names = platform
      .resolve(RouteTable)
      .list()
      .map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(["app.GET /hello", "setup.page", "setup.submit", "serve.home"]),
    );
    expect(names.filter((n) => /^(orders|admin|account)\./.test(n))).toEqual([]);
    const demoLogin = await fetch(`${url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin" }),
    });
    expect(demoLogin.status).toBe(401);
  });

  it("prints the setup token once, on the console; the log sink never sees it", () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(io.stdout.join("\n").split(token)).toHaveLength(2);
    expect(JSON.stringify(logger.entries)).not.toContain(token);
    expect(io.stderr.join("\n")).not.toContain(token);
  });

  it("refuses hostile and malformed setup requests with stable codes, never a 500, spending nothing", async () => {
    const good = { token, username: "root", password: "correct horse" };
    const cases: [string, string, number, string][] = [
      ["not JSON", "{", 400, "MALFORMED_JSON"],
      ["an array", "[]", 400, "MALFORMED_BODY"],
      ["no token", JSON.stringify({ ...good, token: undefined }), 400, "VALIDATION_FAILED"],
      ["a token array", JSON.stringify({ ...good, token: [token] }), 400, "VALIDATION_FAILED"],
      // The last character changed (to one it is not: a token ending in "A" once made this the real one).
      [
        "a wrong token",
        JSON.stringify({ ...good, token: `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}` }),
        401,
        "INVALID_TOKEN",
      ],
      ["a huge token", JSON.stringify({ ...good, token: "x".repeat(5000) }), 401, "INVALID_TOKEN"],
      ["no password", JSON.stringify({ ...good, password: undefined }), 400, "VALIDATION_FAILED"],
      ["a short password", JSON.stringify({ ...good, password: "short" }), 400, "VALIDATION_FAILED"],
      [
        "a control character",
        JSON.stringify({ ...good, password: "correct\u0000horse" }),
        400,
        "VALIDATION_FAILED",
      ],
      [
        "a lone surrogate (the hasher would refuse it after the token was spent)",
        JSON.stringify({ ...good, password: "1234567\ud800" }),
        400,
        "VALIDATION_FAILED",
      ],
      ["a malformed address", JSON.stringify({ ...good, email: "root@@example" }), 400, "VALIDATION_FAILED"],
      [
        "an address with a line break",
        JSON.stringify({ ...good, email: "a@b.example\r\nBcc: x@y.example" }),
        400,
        "VALIDATION_FAILED",
      ],
      [
        "a hidden character in the username",
        JSON.stringify({ ...good, username: "ro\u200bot" }),
        400,
        "VALIDATION_FAILED",
      ],
      [
        "a huge username",
        JSON.stringify({ ...good, username: "r".repeat(100_000) }),
        400,
        "VALIDATION_FAILED",
      ],
      [
        "a proto key",
        `{"__proto__":{"token":"${token}"},"username":"root","password":"correct horse"}`,
        400,
        "VALIDATION_FAILED",
      ],
      [
        "an oversized body",
        JSON.stringify({ ...good, pad: "x".repeat(1_100_000) }),
        413,
        "PAYLOAD_TOO_LARGE",
      ],
    ];
    for (const [what, body, status, code] of cases) {
      const answer = await postSetup(body);
      expect([what, answer.status]).toEqual([what, status]);
      expect([what, ((await answer.json()) as { code: string }).code]).toEqual([what, code]);
    }
    const noCsrf = await postSetup(JSON.stringify(good), "application/json", false);
    expect(noCsrf.status).toBe(403);
    expect(((await noCsrf.json()) as { code: string }).code).toBe("CSRF_TOKEN_INVALID");
    const text = await postSetup("token=x", "text/plain");
    expect(text.status).toBe(415);
    expect(((await text.json()) as { code: string }).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("a form post with a wrong token answers the page with the error, escaped", async () => {
    const { cookie, csrf, page } = await setupSession();
    expect(page).toContain('<form method="post" action="/setup">');
    expect(page).not.toContain("<script");
    const form = new URLSearchParams({
      _csrf: csrf,
      token: "<b>nope</b>",
      username: "root",
      password: "correct horse",
    });
    const answer = await fetch(`${url}/setup`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: form.toString(),
    });
    expect(answer.status).toBe(401);
    const html = await answer.text();
    expect(html).toContain('role="alert"');
    expect(html).not.toContain("<b>nope");
  });

  it("while the token is live, an administrator made another way ends setup, and the token stays unspent", async () => {
    const platform = (globalThis as { servePlatform?: Platform }).servePlatform!;
    const users = platform.resolve(UserRepository);
    const other = await users.create({ username: "other", authorities: ["ROLE_ADMIN"] });
    const body = JSON.stringify({ token, username: "root", password: "correct horse" });
    const refused = await postSetup(body);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe("CONFLICT");
    await users.delete(other.id);
  });

  it("a name already taken by a non-administrator answers 409 and leaves the token unspent", async () => {
    const platform = (globalThis as { servePlatform?: Platform }).servePlatform!;
    const users = platform.resolve(UserRepository);
    const taken = await users.create({ username: "taken", authorities: ["ROLE_USER"] });
    const refused = await postSetup(JSON.stringify({ token, username: "taken", password: "correct horse" }));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe("CONFLICT");
    await users.delete(taken.id);
  });

  it("spends the token once for the first administrator, who signs in; afterwards setup is refused", async () => {
    const body = JSON.stringify({
      token,
      username: "root",
      password: "correct horse",
      email: "Root@Example.COM",
    });
    const first = await postSetup(body);
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      ok: true,
      user: { username: "root", authorities: ["ROLE_USER", "ROLE_ADMIN"] },
    });
    const again = await postSetup(body);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe("CONFLICT");
    const signIn = await fetch(`${url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "root", password: "correct horse" }),
    });
    expect(signIn.status).not.toBe(401);
    const platform = (globalThis as { servePlatform?: Platform }).servePlatform!;
    expect((await platform.resolve(UserRepository).findByUsername("root"))?.email).toBe("Root@example.com");
    expect(JSON.stringify(logger.entries)).not.toContain("correct horse");
  });

  it("--host takes an address or a host name and refuses anything else", () => {
    expect(parseHost("0.0.0.0")).toBe("0.0.0.0");
    expect(parseHost("::")).toBe("::");
    expect(parseHost("app.internal")).toBe("app.internal");
    for (const bad of ["", "a b", "-x", "x..y", "http://x", "a".repeat(300), true] as const) {
      expect(() => parseHost(bad)).toThrow(/Invalid --host/);
    }
  });

  it("says what another instance's live token or a store without administrators means, never a token it did not make", () => {
    const live = setupLines({ kind: "live", expiresAt: Date.UTC(2026, 0, 1, 1) }, "http://x");
    expect(live.join("\n")).toMatch(
      /setup token is live until 2026-01-01T01:00:00.000Z; the instance that made it printed it/,
    );
    expect(setupLines("no-administrator", "http://x").join("\n")).toMatch(/platform admin create/);
    expect(setupLines(undefined, "http://x")).toEqual([]);
  });
});
