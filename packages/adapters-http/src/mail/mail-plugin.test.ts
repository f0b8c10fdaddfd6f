import { createPlatform, identityPlugin } from "@keyward/core";
import { isPlatformError } from "@keyward/core/errors";
import { OneTimeTokenDelivery } from "@keyward/core/ports";
import { describe, expect, it } from "vitest";
import { httpPlugin } from "../http-properties.js";
import { SmtpOneTimeTokenDelivery } from "./smtp-one-time-token-delivery.js";

const SMTP = {
  "platform.auth.ott.delivery": "smtp",
  "platform.mail.smtp.host": "127.0.0.1",
  "platform.mail.smtp.from": "no-reply@keyward.test",
};

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("mailPlugin (included by httpPlugin)", () => {
  it("registers the SMTP delivery when platform.auth.ott.delivery=smtp, whatever the plugin order", async () => {
    for (const plugins of [
      [identityPlugin, httpPlugin],
      [httpPlugin, identityPlugin],
    ]) {
      const platform = createPlatform({ plugins, properties: SMTP, env: {} });
      expect(platform.resolve(OneTimeTokenDelivery)).toBeInstanceOf(SmtpOneTimeTokenDelivery);
    }
  });

  it("leaves a host's own delivery in place", () => {
    const own = { deliver: async () => undefined };
    const platform = createPlatform({
      plugins: [identityPlugin, httpPlugin],
      properties: SMTP,
      env: {},
      overrides: (o) => o.override(OneTimeTokenDelivery, { useValue: own }),
    });
    expect(platform.resolve(OneTimeTokenDelivery)).toBe(own);
  });

  it("stops the platform's creation without a host or a sender, naming the keys", () => {
    const error = thrown(() =>
      createPlatform({
        plugins: [identityPlugin, httpPlugin],
        properties: { "platform.auth.ott.delivery": "smtp" },
        env: {},
      }),
    );
    expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
    expect((error as Error).message).toContain("platform.mail.smtp.host and platform.mail.smtp.from");
  });

  it("takes any password (never validated, so never echoed in an error) and names a bad security value", () => {
    const platform = createPlatform({
      plugins: [identityPlugin, httpPlugin],
      properties: { ...SMTP, "platform.mail.smtp.password": "p\r\nass" },
      env: {},
    });
    expect(platform.properties.sourceOf("platform.mail.smtp.password")).toBe("code");
    const bad = thrown(() =>
      createPlatform({
        plugins: [httpPlugin],
        properties: { "platform.mail.smtp.security": "ssl" },
        env: {},
      }),
    );
    expect((bad as Error).message).toContain("must be starttls, tls or none");
  });

  it("refuses to start with smtp chosen and no mail plugin, naming the plugin", async () => {
    const platform = createPlatform({
      plugins: [identityPlugin],
      properties: { "platform.auth.ott.delivery": "smtp" },
      env: {},
    });
    const error = await platform.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
    expect((error as Error).message).toContain("install httpPlugin (it includes mailPlugin)");
  });
});
