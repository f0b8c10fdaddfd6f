import { isPlatformError } from "@keyward/core/errors";
import { HttpExchange } from "@keyward/core/web";
import { describe, expect, it } from "vitest";
import { bearerMatches, metricsRoute } from "./metrics-route.js";
import { PlatformMetrics } from "./platform-metrics.js";

const TOKEN = "m3tr1cs-shared-token-0123456789abcdef";

function ask(
  audience: "loopback" | "bearer",
  headers: Record<string, string>,
  remoteAddress = "203.0.113.5",
) {
  const route = metricsRoute({
    metrics: new PlatformMetrics(),
    path: "/metrics",
    audience,
    bearerToken: TOKEN,
  });
  const exchange = new HttpExchange({ method: "GET", url: "/metrics", headers, remoteAddress });
  return Promise.resolve()
    .then(() => route.handler(exchange))
    .then(
      (body) => ({ ok: true as const, body, exchange }),
      (error: unknown) => ({
        ok: false as const,
        code: isPlatformError(error) ? error.code : "THROWN",
        exchange,
      }),
    );
}

describe("the metrics route refuses whoever is not its audience", () => {
  it("bearer: the exact token is admitted and gets the text format", async () => {
    const answer = await ask("bearer", { authorization: `Bearer ${TOKEN}` });
    expect(answer.ok).toBe(true);
    expect(String(answer.ok && answer.body)).toContain("keyward_metrics_info 1");
    expect(answer.exchange.response.headers.get("cache-control")).toBe("no-store");
  });

  it.each([
    ["missing", {}],
    ["empty", { authorization: "" }],
    ["another scheme", { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` }],
    ["no token", { authorization: "Bearer " }],
    ["a prefix of the token", { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ["the token and more", { authorization: `Bearer ${TOKEN}x` }],
    ["another token of the same length", { authorization: `Bearer ${"x".repeat(TOKEN.length)}` }],
    ["oversized", { authorization: `Bearer ${"a".repeat(100_000)}` }],
    ["unicode look-alike", { authorization: `Bearer ${TOKEN.replace("m", "\u217F")}` }],
    ["the token in another header", { "x-metrics-token": TOKEN }],
  ])("bearer: %s answers 401 AUTHENTICATION_REQUIRED with WWW-Authenticate", async (_name, headers) => {
    const answer = await ask("bearer", headers as Record<string, string>);
    expect(answer).toMatchObject({ ok: false, code: "AUTHENTICATION_REQUIRED" });
    expect(answer.exchange.response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
  });

  it("bearer: the scheme name is case-insensitive, surrounding spaces are ignored", async () => {
    expect((await ask("bearer", { authorization: `bearer ${TOKEN}` })).ok).toBe(true);
    expect((await ask("bearer", { authorization: `BEARER   ${TOKEN}  ` })).ok).toBe(true);
  });

  it.each(["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])(
    "loopback: %s is admitted",
    async (address) => {
      expect((await ask("loopback", {}, address)).ok).toBe(true);
    },
  );

  it.each(["203.0.113.5", "10.0.0.1", "::2", "", "not an address", "127.0.0.1.example"])(
    "loopback: %j answers 404 NOT_FOUND, whatever headers say",
    async (address) => {
      const answer = await ask(
        "loopback",
        { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", forwarded: "for=127.0.0.1" },
        address,
      );
      expect(answer).toMatchObject({ ok: false, code: "NOT_FOUND" });
    },
  );

  it("bearerMatches refuses everything when no token is configured", () => {
    expect(bearerMatches("Bearer ", Buffer.alloc(0))).toBe(false);
    expect(bearerMatches(undefined, Buffer.from(TOKEN))).toBe(false);
  });
});
