import { describe, expect, it } from "vitest";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { OneTimeTokenGenerationSuccessHandler } from "./one-time-token-generation-success-handler.js";
import type { OneTimeToken } from "./one-time-token-service.js";
import { CLIENT_IP, observable, ottFixture, request } from "./ott.fixture.js";

const WINDOW = 15 * 60_000;
const SENT = {
  success: true,
  message: "If the account exists, a sign-in link has been sent",
  submitPageUrl: "/login/ott",
};

describe("OttGenerateEndpoint", () => {
  it("is the route identity.ott.generate and lets other paths and methods through", async () => {
    const f = await ottFixture();
    expect(f.routes[0]?.name).toBe("identity.ott.generate");
    for (const [method, url] of [
      ["GET", "/ott/generate"],
      ["POST", "/ott/generate/x"],
      ["POST", "/ott"],
    ] as const) {
      const { exchange, fellThrough } = await f.run(request(method, url, { json: { username: "alice" } }));
      expect(fellThrough, `${method} ${url}`).toBe(true);
      expect(exchange.response.committed).toBe(false);
    }
    expect(f.delivery.messages).toEqual([]);
  });

  it("generates a token for a known user (any case) and delivers it with the magic link", async () => {
    const f = await ottFixture();
    const exchange = await f.send("POST", "/ott/generate", { json: { username: " alice " } });
    expect(observable(exchange)).toMatchObject({ status: 200, body: SENT });
    await f.handler.whenIdle();
    const [message] = f.delivery.messages;
    expect(message).toEqual({
      username: "Alice",
      to: "Alice",
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      link: `http://localhost:8080/login/ott?token=${message?.token}`,
      channel: "email",
      at: f.clock.now(),
    });
    expect(f.tokenService.records()).toHaveLength(1);
    expect(f.tokenService.records()[0]?.username).toBe("Alice");
  });

  it("accepts a form post and redirects the browser to the page with ?sent", async () => {
    const f = await ottFixture();
    const exchange = await f.send("POST", "/ott/generate", { form: { username: "Alice", _csrf: "x" } });
    expect(observable(exchange)).toMatchObject({ status: 302, headers: { location: "/login/ott?sent" } });
    await f.handler.whenIdle();
    expect(f.delivery.messages).toHaveLength(1);
  });

  it("audits auth.ott.generated with the user id, never the token", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    expect(f.audit.events()).toEqual([
      expect.objectContaining({
        type: "auth.ott.generated",
        outcome: "success",
        principal: "Alice",
        remoteAddress: CLIENT_IP,
        data: { userId: f.alice.id, expiresAt: f.clock.now() + 5 * 60_000 },
      }),
    ]);
    expect(JSON.stringify(f.audit.events())).not.toContain(token);
  });

  it("refuses a missing, empty, blank, non-string or over-long username with 400 VALIDATION_FAILED", async () => {
    const f = await ottFixture({ limits: { maxPerIp: 1 } });
    for (const json of [
      {},
      { username: "" },
      { username: "   " },
      { username: 42 },
      { username: ["alice"] },
      { username: { $ne: null } },
      { username: null },
      { username: "a".repeat(257) },
      { user: "alice" },
    ]) {
      const exchange = await f.send("POST", "/ott/generate", { json });
      expect(observable(exchange), JSON.stringify(json).slice(0, 40)).toMatchObject({
        status: 400,
        body: { success: false, code: "VALIDATION_FAILED", failureType: "INVALID_REQUEST" },
      });
    }
    // Refused requests are not counted: the address still has its one request.
    expect(
      (await f.send("POST", "/ott/generate", { json: { username: "a".repeat(256) } })).response.status,
    ).toBe(200);
    expect(f.audit.events().filter((e) => e.type === "auth.ott.generation-rejected")).toHaveLength(9);
  });

  it("sends a browser with a bad request back to the page with ?error", async () => {
    const f = await ottFixture();
    const exchange = await f.send("POST", "/ott/generate", { form: { username: "" } });
    expect(observable(exchange)).toMatchObject({ status: 302, headers: { location: "/login/ott?error" } });
  });

  it("answers malformed and unsupported bodies with their stable 4xx codes", async () => {
    const f = await ottFixture();
    const cases = [
      [{ contentType: "application/json", body: "{" }, 400, "MALFORMED_JSON"],
      [{ contentType: "application/json", body: '["alice"]' }, 400, "MALFORMED_BODY"],
      [{ contentType: "text/plain", body: "username=alice" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
    ] as const;
    for (const [raw, status, code] of cases) {
      const exchange = await f.send("POST", "/ott/generate", {
        raw,
        headers: { accept: "application/json" },
      });
      expect(observable(exchange), code).toMatchObject({ status, body: { success: false, code } });
    }
    expect(f.tokenService.size).toBe(0);
  });

  it("limits a username to 3 requests per 15 minutes from any address, then answers 429 with Retry-After", async () => {
    const f = await ottFixture();
    for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
      expect(
        (await f.send("POST", "/ott/generate", { json: { username: "alice" }, ip })).response.status,
      ).toBe(200);
    }
    f.clock.advance(60_000);
    const refused = await f.send("POST", "/ott/generate", { json: { username: "ALICE" }, ip: "192.0.2.4" });
    expect(observable(refused)).toMatchObject({
      status: 429,
      headers: { "retry-after": "840" },
      body: { success: false, code: "TOO_MANY_ATTEMPTS", failureType: "TOO_MANY_ATTEMPTS" },
    });
    expect(f.audit.events().at(-1)).toMatchObject({
      type: "auth.ott.generation-throttled",
      outcome: "denied",
      data: { scope: "user", retryAfterSeconds: 840 },
    });
    expect(
      (await f.send("POST", "/ott/generate", { json: { username: "bob" }, ip: "192.0.2.4" })).response.status,
    ).toBe(200);
    f.clock.advance(WINDOW - 60_000);
    expect((await f.send("POST", "/ott/generate", { json: { username: "alice" } })).response.status).toBe(
      200,
    );
    await f.handler.whenIdle();
    expect(f.delivery.messages).toHaveLength(4);
  });

  it("limits an address to 20 requests per 15 minutes across usernames", async () => {
    const f = await ottFixture();
    for (let i = 0; i < 20; i++) {
      expect(
        (await f.send("POST", "/ott/generate", { json: { username: `user${i}` } })).response.status,
      ).toBe(200);
    }
    const refused = await f.send("POST", "/ott/generate", { json: { username: "alice" } });
    expect(observable(refused)).toMatchObject({ status: 429, headers: { "retry-after": "900" } });
    expect(
      (await f.send("POST", "/ott/generate", { json: { username: "alice" }, ip: "192.0.2.99" })).response
        .status,
    ).toBe(200);
    f.clock.advance(WINDOW);
    expect((await f.send("POST", "/ott/generate", { json: { username: "alice" } })).response.status).toBe(
      200,
    );
  });

  it("honours custom limits", async () => {
    const f = await ottFixture({ limits: { maxPerUser: 1, windowMs: 1_000 } });
    expect((await f.send("POST", "/ott/generate", { json: { username: "alice" } })).response.status).toBe(
      200,
    );
    expect((await f.send("POST", "/ott/generate", { json: { username: "alice" } })).response.status).toBe(
      429,
    );
    f.clock.advance(1_000);
    expect((await f.send("POST", "/ott/generate", { json: { username: "alice" } })).response.status).toBe(
      200,
    );
  });

  it("hands a custom success handler the token, whose value it reads with getTokenValue()", async () => {
    const seen: { exchange: HttpExchange; token: OneTimeToken | undefined }[] = [];
    const custom: OneTimeTokenGenerationSuccessHandler = {
      handle: async (exchange, token) => {
        seen.push({ exchange, token });
        exchange.json(202, { queued: true });
      },
      acknowledge: async (exchange) => {
        seen.push({ exchange, token: undefined });
        exchange.json(202, { queued: true });
      },
    };
    const f = await ottFixture({ override: { generationSuccessHandler: custom } });
    await f.send("POST", "/ott/generate", { json: { username: "alice" } });
    await f.send("POST", "/ott/generate", { json: { username: "nobody" } });
    expect(seen.map((s) => s.token?.username)).toEqual(["Alice", undefined]);
    const value = seen[0]?.token?.getTokenValue() ?? "";
    expect((await f.tokenService.consume({ tokenValue: value }))?.username).toBe("Alice");
  });

  it("answers on a custom generate URL only", async () => {
    const f = await ottFixture({ override: { generateUrl: "/magic/request" } });
    const { fellThrough } = await f.run(request("POST", "/ott/generate", { json: { username: "alice" } }));
    expect(fellThrough).toBe(true);
    expect((await f.send("POST", "/magic/request", { json: { username: "alice" } })).response.status).toBe(
      200,
    );
  });
});
