import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { InMemorySessionStore } from "../session/in-memory-session-store.js";
import { SessionManager } from "../session/session-manager.js";
import { constantTimeEquals } from "./constant-time-equals.js";
import { CsrfFilter } from "./csrf-filter.js";
import { csrfToken } from "./csrf-token.js";
import { SessionCsrfTokenRepository } from "./session-csrf-token-repository.js";

function setup() {
  const clock = new ManualClock();
  const store = new InMemorySessionStore({ clock });
  const ids = new CryptoIdGenerator();
  const sessions = new SessionManager({ store, clock, ids });
  const repository = new SessionCsrfTokenRepository({ sessions, ids });
  return { clock, store, sessions, repository, filter: new CsrfFilter({ repository }) };
}
type Kit = ReturnType<typeof setup>;

function exchange(
  method: string,
  init: { cookie?: string; headers?: Record<string, string>; body?: string; url?: string } = {},
) {
  return new HttpExchange({
    method,
    url: init.url ?? "/transfer",
    headers: { cookie: init.cookie, ...init.headers },
    remoteAddress: "203.0.113.9",
    readBody: init.body === undefined ? undefined : async () => init.body!,
  });
}

async function run(filter: CsrfFilter, ex: HttpExchange): Promise<{ next: boolean; code?: string }> {
  let next = false;
  try {
    await filter.filter(ex, async () => {
      next = true;
    });
  } catch (e) {
    return { next, code: isPlatformError(e) ? e.code : `not a PlatformError: ${String(e)}` };
  }
  return { next };
}

async function visit(kit: Kit) {
  const page = exchange("GET");
  await run(kit.filter, page);
  const token = await csrfToken(page)!.value();
  return { token, cookie: `PLATFORM_SESSION=${page.response.cookies[0]!.value}` };
}

/** Expects CSRF_TOKEN_INVALID, `next` not called, no new session and no session cookie set. */
async function expectRefused(kit: Kit, ex: HttpExchange): Promise<void> {
  const before = kit.store.size;
  expect(await run(kit.filter, ex)).toEqual({ next: false, code: "CSRF_TOKEN_INVALID" });
  expect(kit.store.size).toBeLessThanOrEqual(before);
  expect(ex.response.cookies.filter((c) => c.value !== "")).toEqual([]);
  expect(ex.response.committed).toBe(false);
}

describe("CsrfFilter security", () => {
  it("refuses an unsafe request without a session, and creates none", async () => {
    const kit = setup();
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "PROPFIND"]) {
      await expectRefused(kit, exchange(method, { headers: { "x-csrf-token": "anything" } }));
    }
    expect(kit.store.size).toBe(0);
  });

  it("refuses a session that has no token yet", async () => {
    const kit = setup();
    const ex0 = exchange("GET");
    await kit.sessions.getOrCreate(ex0);
    const cookie = `PLATFORM_SESSION=${ex0.response.cookies[0]!.value}`;
    await expectRefused(kit, exchange("POST", { cookie, headers: { "x-csrf-token": "" } }));
    await expectRefused(kit, exchange("POST", { cookie, headers: { "x-csrf-token": "undefined" } }));
  });

  it("refuses a missing token", async () => {
    const kit = setup();
    const { cookie } = await visit(kit);
    await expectRefused(kit, exchange("POST", { cookie }));
    await expectRefused(kit, exchange("POST", { cookie, headers: { "x-csrf-token": "" } }));
    await expectRefused(
      kit,
      exchange("POST", {
        cookie,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "amount=100",
      }),
    );
  });

  it("refuses a wrong token, and one differing only in its last character", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    const last = token.at(-1) === "A" ? "B" : "A";
    for (const wrong of [
      "wrong",
      token.slice(0, -1) + last,
      token.toLowerCase() === token ? "X" : token.toLowerCase(),
    ]) {
      await expectRefused(kit, exchange("POST", { cookie, headers: { "x-csrf-token": wrong } }));
    }
  });

  it("refuses tokens of another length (prefix, extension, multibyte) without throwing", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    for (const wrong of [token.slice(0, 10), `${token}A`, `${token.slice(0, -1)}é`, "x".repeat(10_000)]) {
      await expectRefused(kit, exchange("POST", { cookie, headers: { "x-csrf-token": wrong } }));
    }
    expect(constantTimeEquals("abc", "abcd")).toBe(false);
    expect(constantTimeEquals("é", "ab")).toBe(false); // same string length, different byte length
    expect(constantTimeEquals(token, token)).toBe(true);
  });

  it("refuses another session's token (the attacker's own session)", async () => {
    const kit = setup();
    const attacker = await visit(kit);
    const victim = await visit(kit);
    await expectRefused(
      kit,
      exchange("POST", { cookie: victim.cookie, headers: { "x-csrf-token": attacker.token } }),
    );
    await expectRefused(
      kit,
      exchange("POST", {
        cookie: victim.cookie,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `_csrf=${attacker.token}`,
      }),
    );
  });

  it("lets the header decide when present: a wrong header is not rescued by a right field", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    await expectRefused(
      kit,
      exchange("POST", {
        cookie,
        headers: { "x-csrf-token": "wrong", "content-type": "application/x-www-form-urlencoded" },
        body: `_csrf=${token}`,
      }),
    );
    const rightHeaderWrongField = exchange("POST", {
      cookie,
      headers: { "x-csrf-token": token, "content-type": "application/x-www-form-urlencoded" },
      body: "_csrf=wrong",
    });
    expect(await run(kit.filter, rightHeaderWrongField)).toEqual({ next: true });
  });

  it("refuses a wrong token in a JSON body, and a token that is not a string", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    const json = { "content-type": "application/json" };
    for (const body of [
      JSON.stringify({ _csrf: "wrong" }),
      JSON.stringify({ _csrf: [token] }),
      JSON.stringify({ _csrf: { value: token } }),
      JSON.stringify({ _csrf: 1 }),
      JSON.stringify({ nested: { _csrf: token } }),
      `{"__proto__": {"_csrf": "${token}"}}`,
    ]) {
      await expectRefused(kit, exchange("POST", { cookie, headers: json, body }));
    }
  });

  it("counts a malformed or unsupported body as a missing token: 403, not 400/415/500", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    const cases: { type: string; body: string }[] = [
      { type: "application/json", body: `{"_csrf": "${token}"` },
      { type: "application/json", body: `["${token}"]` },
      { type: "application/json", body: "[".repeat(100) + "]".repeat(100) },
      { type: "text/plain", body: `_csrf=${token}` },
      { type: "multipart/form-data; boundary=x", body: `--x\r\n_csrf=${token}\r\n--x--` },
    ];
    for (const { type, body } of cases) {
      await expectRefused(kit, exchange("POST", { cookie, headers: { "content-type": type }, body }));
    }
    const failing = new HttpExchange({
      method: "POST",
      url: "/transfer",
      headers: { cookie, "content-type": "application/json" },
      remoteAddress: "203.0.113.9",
      readBody: async () => {
        throw new Error("socket hang up");
      },
    });
    await expectRefused(kit, failing);
  });

  it("never reads the token from the query string", async () => {
    const kit = setup();
    const { token, cookie } = await visit(kit);
    await expectRefused(kit, exchange("POST", { cookie, url: `/transfer?_csrf=${token}` }));
  });

  it("refuses after logout (session invalidated) and after expiry", async () => {
    const kit = setup();
    const a = await visit(kit);
    await kit.sessions.invalidate(exchange("POST", { cookie: a.cookie }));
    await expectRefused(kit, exchange("POST", { cookie: a.cookie, headers: { "x-csrf-token": a.token } }));
    const b = await visit(kit);
    kit.clock.advance(30 * 60_000);
    await expectRefused(kit, exchange("POST", { cookie: b.cookie, headers: { "x-csrf-token": b.token } }));
  });

  it("treats lower-case method names the same (the exchange upper-cases them)", async () => {
    const kit = setup();
    await expectRefused(kit, exchange("post"));
  });
});
