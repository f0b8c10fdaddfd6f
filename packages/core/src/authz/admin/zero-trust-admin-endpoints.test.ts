import { serveRoutes } from "../../identity/chain/chain-routes.test-support.js";
import { describe, expect, it, vi } from "vitest";
import {
  type Authentication,
  setCurrentAuthentication,
} from "../../identity/authentication/authentication.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { ALICE, ROOT, setup } from "../zerotrust/zero-trust.fixture.js";
import { ZeroTrustAdminEndpoints } from "./zero-trust-admin-endpoints.js";

const BASE = "/admin/api/zerotrust/actions";

function exchange(
  init: { method?: string; url?: string; as?: Authentication; body?: unknown; type?: string } = {},
) {
  const text =
    init.body === undefined ? "" : typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  const x = new HttpExchange({
    method: init.method ?? "GET",
    url: init.url ?? BASE,
    headers: {
      accept: "application/json",
      "content-type": init.body === undefined ? undefined : (init.type ?? "application/json"),
    },
    remoteAddress: "203.0.113.7",
    readBody: async () => text,
  });
  if (init.as) setCurrentAuthentication(x, init.as);
  return x;
}

function admin(basePath?: string) {
  const s = setup();
  const filter = new ZeroTrustAdminEndpoints({
    service: s.service,
    audit: s.audit,
    ...(basePath ? { basePath } : {}),
  });
  const run = async (x: HttpExchange) => {
    const next = vi.fn(async () => {});
    await serveRoutes(filter.routes("authz.admin"), x, next);
    return next;
  };
  const send = async (init: Parameters<typeof exchange>[0]) => {
    const x = exchange({ as: ROOT, ...init });
    await run(x);
    return x;
  };
  return { ...s, filter, run, send };
}

describe("ZeroTrustAdminEndpoints", () => {
  it("PUT writes an action as source admin and answers the record, no-store", async () => {
    const { send, clock, audit } = admin();
    const x = await send({
      method: "PUT",
      url: `${BASE}/user:u-alice`,
      body: { action: "block", reason: "fraud" },
    });
    expect(x.response.status).toBe(200);
    expect(x.response.headers.get("cache-control")).toBe("no-store");
    expect(x.response.body).toEqual({
      subject: "user:u-alice",
      action: "BLOCK",
      reason: "fraud",
      source: "admin",
      at: clock.now(),
      expiresAt: clock.now() + 24 * 3_600_000,
      version: 1,
    });
    expect(audit.events()[0]).toMatchObject({ type: "zerotrust.action.set", principal: "root" });
  });

  it("takes ttlSeconds and a URL-encoded subject", async () => {
    const { send, clock } = admin();
    const x = await send({
      method: "PUT",
      url: `${BASE}/session%3As-1`,
      body: { action: "ALLOW", ttlSeconds: 60 },
    });
    expect(x.response.body).toMatchObject({
      subject: "session:s-1",
      expiresAt: clock.now() + 60_000,
      reason: null,
    });
  });

  it("GET lists newest first, filters by action and limit; GET one; 404 for none", async () => {
    const { send, clock } = admin();
    await send({ method: "PUT", url: `${BASE}/user:a`, body: { action: "BLOCK" } });
    clock.advance(1);
    await send({ method: "PUT", url: `${BASE}/user:b`, body: { action: "CHALLENGE" } });
    const all = await send({});
    expect((all.response.body as { subject: string }[]).map((r) => r.subject)).toEqual(["user:b", "user:a"]);
    expect(all.response.headers.get("cache-control")).toBe("no-store");
    const blocked = await send({ url: `${BASE}?action=BLOCK` });
    expect((blocked.response.body as { subject: string }[]).map((r) => r.subject)).toEqual(["user:a"]);
    const one = await send({ url: `${BASE}?limit=1` });
    expect(one.response.body).toHaveLength(1);
    expect((await send({ url: `${BASE}/user:b` })).response.body).toMatchObject({ action: "CHALLENGE" });
    await expect(send({ url: `${BASE}/user:zz` })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("DELETE clears and answers { subject, cleared }", async () => {
    const { send } = admin();
    await send({ method: "PUT", url: `${BASE}/user:a`, body: { action: "BLOCK" } });
    const first = await send({ method: "DELETE", url: `${BASE}/user:a` });
    expect(first.response.body).toEqual({ subject: "user:a", cleared: true });
    expect((await send({ method: "DELETE", url: `${BASE}/user:a` })).response.body).toEqual({
      subject: "user:a",
      cleared: false,
    });
  });

  it("requires ROLE_ADMIN: 401 anonymous, 403 others (audited), before reading the body", async () => {
    const { run, audit, memory } = admin();
    for (const [method, url] of [
      ["GET", BASE],
      ["GET", `${BASE}/user:a`],
      ["PUT", `${BASE}/user:u-alice`],
      ["DELETE", `${BASE}/user:u-alice`],
    ] as const) {
      await expect(run(exchange({ method, url, body: "{not json" }))).rejects.toMatchObject({
        code: "AUTHENTICATION_REQUIRED",
      });
      await expect(run(exchange({ method, url, as: ALICE, body: "{not json" }))).rejects.toMatchObject({
        code: "ACCESS_DENIED",
      });
    }
    expect(audit.events().filter((e) => e.type === "zerotrust.admin.denied")).toHaveLength(4);
    expect(audit.events()[0]).toMatchObject({ principal: "alice", outcome: "denied" });
    expect(await memory.list()).toEqual([]);
  });

  it("refuses an unknown action ('BLOK') instead of mapping it to ESCALATE", async () => {
    const { send, memory } = admin();
    await expect(
      send({ method: "PUT", url: `${BASE}/user:a`, body: { action: "BLOK" } }),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: { fields: ["action"] },
    });
    expect(await memory.get("user:a")).toBeUndefined();
  });

  it.each([
    ["no body", undefined, "VALIDATION_FAILED"],
    ["malformed JSON", "{", "MALFORMED_JSON"],
    ["an array", "[]", "MALFORMED_BODY"],
    ["a deep object", `{"action":"BLOCK","reason":${"[".repeat(40)}${"]".repeat(40)}}`, "MALFORMED_BODY"],
    ["an unknown field", { action: "BLOCK", ttl: 60 }, "VALIDATION_FAILED"],
    ["a __proto__ field", '{"action":"BLOCK","__proto__":{"admin":true}}', "VALIDATION_FAILED"],
    ["a non-string action", { action: ["BLOCK"] }, "VALIDATION_FAILED"],
    ["a huge action", { action: "B".repeat(100_000) }, "VALIDATION_FAILED"],
    ["a number reason", { action: "BLOCK", reason: 1 }, "VALIDATION_FAILED"],
    ["an oversized reason", { action: "BLOCK", reason: "x".repeat(501) }, "VALIDATION_FAILED"],
    ["a control character", { action: "BLOCK", reason: "a\u0000b" }, "VALIDATION_FAILED"],
    ["a fractional ttl", { action: "BLOCK", ttlSeconds: 1.5 }, "VALIDATION_FAILED"],
    ["a string ttl", { action: "BLOCK", ttlSeconds: "60" }, "VALIDATION_FAILED"],
    ["a zero ttl", { action: "BLOCK", ttlSeconds: 0 }, "VALIDATION_FAILED"],
    ["a ttl past the maximum", { action: "BLOCK", ttlSeconds: 86_401 }, "VALIDATION_FAILED"],
    ["PENDING_ANALYSIS without ttl", { action: "PENDING_ANALYSIS" }, "VALIDATION_FAILED"],
  ])("PUT refuses %s with %s", async (_, body, code) => {
    const { send, memory } = admin();
    await expect(send({ method: "PUT", url: `${BASE}/user:a`, body })).rejects.toMatchObject({ code });
    expect(await memory.list()).toEqual([]);
  });

  it("names the longest ttl in seconds when refusing one", async () => {
    const { send } = admin();
    await expect(
      send({ method: "PUT", url: `${BASE}/session:s`, body: { action: "CHALLENGE", ttlSeconds: 1_801 } }),
    ).rejects.toMatchObject({ details: { fields: ["ttlSeconds"], maxTtlSeconds: 1_800 } });
  });

  it("refuses a form body, bad subjects and bad list parameters", async () => {
    const { send } = admin();
    await expect(
      send({
        method: "PUT",
        url: `${BASE}/user:a`,
        body: "action=BLOCK",
        type: "application/x-www-form-urlencoded",
      }),
    ).rejects.toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    for (const subject of [
      "alice",
      "user:",
      "user%3A%20a",
      "%E0%A4%A",
      "user%0Aevil",
      `user:${"x".repeat(300)}`,
    ]) {
      await expect(
        send({ method: "PUT", url: `${BASE}/${subject}`, body: { action: "BLOCK" } }),
        subject,
      ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    }
    for (const query of ["limit=0", "limit=1001", "limit=abc", "limit=-1", "action=NOPE"]) {
      await expect(send({ url: `${BASE}?${query}` }), query).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    }
  });

  it("passes other requests on", async () => {
    const { run } = admin();
    for (const [method, url] of [
      ["POST", BASE],
      ["PATCH", BASE],
      ["POST", `${BASE}/user:a`],
      ["GET", `${BASE}/user:a/extra`],
      ["GET", "/admin/api/zerotrust/actionsX"],
      ["GET", "/elsewhere"],
    ] as const) {
      const x = exchange({ method, url, as: ROOT });
      expect(await run(x), `${method} ${url}`).toHaveBeenCalledOnce();
      expect(x.response.committed).toBe(false);
    }
  });

  it("honours a custom basePath", async () => {
    const { run } = admin("/ops/zt/");
    const x = exchange({ url: "/ops/zt", as: ROOT });
    await run(x);
    expect(x.response.body).toEqual([]);
  });
});
