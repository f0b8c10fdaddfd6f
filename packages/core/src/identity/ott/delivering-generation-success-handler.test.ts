import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import type { LogFields } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { DeliveringGenerationSuccessHandler } from "./delivering-generation-success-handler.js";
import { observable, RecordingDelivery, request } from "./ott.fixture.js";
import { oneTimeToken } from "./one-time-token-service.js";

function setup() {
  const clock = new ManualClock();
  const audit = new InMemoryAuditSink(100, clock);
  const delivery = new RecordingDelivery();
  const logged: { message: string; fields: LogFields | undefined }[] = [];
  const logger = {
    info: () => undefined,
    warn: () => undefined,
    error: (message: string, fields?: LogFields) => logged.push({ message, fields }),
  };
  const handler = new DeliveringGenerationSuccessHandler({
    delivery,
    linkFor: (t) => `https://app.example/login/ott?token=${t.getTokenValue()}`,
    submitPageUrl: "/login/ott",
    clock,
    audit,
    logger,
  });
  return { clock, audit, delivery, handler, logged };
}

const token = oneTimeToken("v".repeat(43), "Alice", 123);

describe("DeliveringGenerationSuccessHandler", () => {
  it("delivers {username, to, token, link, channel, at} after answering", async () => {
    const { clock, delivery, handler } = setup();
    const exchange = request("POST", "/ott/generate", { json: {} });
    await handler.handle(exchange, token);
    expect(exchange.response.committed).toBe(true);
    expect(delivery.messages).toEqual([]);
    await handler.whenIdle();
    expect(delivery.messages).toEqual([
      {
        username: "Alice",
        to: "Alice",
        token: "v".repeat(43),
        link: `https://app.example/login/ott?token=${"v".repeat(43)}`,
        channel: "email",
        at: clock.now(),
      },
    ]);
  });

  it("answers JSON clients with the message and browsers with a redirect to ?sent, uncached", async () => {
    const { handler } = setup();
    const json = request("POST", "/ott/generate", { json: {} });
    await handler.handle(json, token);
    expect(observable(json)).toMatchObject({
      status: 200,
      headers: { "cache-control": "no-store" },
      body: {
        success: true,
        message: "If the account exists, a sign-in link has been sent",
        submitPageUrl: "/login/ott",
      },
    });
    const browser = request("POST", "/ott/generate", { form: {} });
    await handler.handle(browser, token);
    expect(observable(browser)).toMatchObject({ status: 302, headers: { location: "/login/ott?sent" } });
  });

  it("acknowledges exactly as it handles, delivering nothing", async () => {
    const { delivery, handler } = setup();
    for (const init of [{ json: {} }, { form: {} }]) {
      const handled = request("POST", "/ott/generate", init);
      const acknowledged = request("POST", "/ott/generate", init);
      await handler.handle(handled, token);
      await handler.acknowledge(acknowledged);
      expect(observable(acknowledged)).toEqual(observable(handled));
    }
    await handler.whenIdle();
    expect(delivery.messages).toHaveLength(2);
  });

  it("uses the configured channel", async () => {
    const { clock, audit, delivery } = setup();
    const handler = new DeliveringGenerationSuccessHandler({
      delivery,
      linkFor: () => "l",
      submitPageUrl: "/p",
      clock,
      audit,
      channel: "sms",
    });
    await handler.handle(request("POST", "/g", { json: {} }), token);
    await handler.whenIdle();
    expect(delivery.messages[0]?.channel).toBe("sms");
  });

  it("audits and logs a failed delivery without the token and keeps the answer", async () => {
    const { audit, delivery, handler, logged } = setup();
    delivery.failWith = new PlatformError("DELIVERY_FAILED", "down", { cause: new Error("EACCES: denied") });
    const exchange = request("POST", "/ott/generate", { json: {} });
    await handler.handle(exchange, token);
    await handler.whenIdle();
    expect(exchange.response.status).toBe(200);
    expect(audit.events()).toEqual([
      expect.objectContaining({
        type: "auth.ott.delivery-failed",
        outcome: "failure",
        principal: "Alice",
        data: { channel: "email", reason: "DELIVERY_FAILED" },
      }),
    ]);
    expect(logged).toEqual([
      {
        message: "One-time token delivery failed",
        fields: { username: "Alice", channel: "email", reason: "DELIVERY_FAILED", cause: "EACCES: denied" },
      },
    ]);
    expect(JSON.stringify([audit.events(), logged])).not.toContain("v".repeat(43));
  });
});
