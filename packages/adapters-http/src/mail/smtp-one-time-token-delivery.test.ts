import { isPlatformError } from "@keyward/core/errors";
import type { OneTimeTokenMessage } from "@keyward/core/ports";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SmtpSettings } from "./mail-properties.js";
import { defaultMailTemplates } from "./mail-templates.js";
import { SmtpOneTimeTokenDelivery } from "./smtp-one-time-token-delivery.js";
import { startTestSmtpServer, type TestSmtpServer } from "./smtp-test-server.fixture.js";

const TOKEN = "tok-3f9a1c2e7b5d4a60";
let server: TestSmtpServer;

beforeAll(async () => {
  server = await startTestSmtpServer({ user: "mailer", password: "s3cret-pass" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
  server.refuse.clear();
});

function settings(overrides: Partial<SmtpSettings> = {}): SmtpSettings {
  return {
    host: "127.0.0.1",
    port: server.port,
    security: "none",
    user: "mailer",
    password: "s3cret-pass",
    from: "no-reply@keyward.test",
    connectTimeoutMs: 2_000,
    sendTimeoutMs: 2_000,
    ...overrides,
  };
}

function message(channel: string, to = "alice@example.com"): OneTimeTokenMessage {
  return {
    username: "alice",
    to,
    token: TOKEN,
    link: `http://localhost:8080/login/ott?token=${TOKEN}`,
    channel,
    at: 1,
  };
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; cause?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isPlatformError(error) && error.code).toBe("DELIVERY_FAILED");
  return error as Error & { code?: string };
}

describe("SmtpOneTimeTokenDelivery", () => {
  it("mails a magic link, authenticated, to the address only, with a text and an HTML part", async () => {
    await new SmtpOneTimeTokenDelivery({ smtp: settings() }).deliver(message("email"));
    const [mail] = await server.waitFor(1);
    expect(mail).toMatchObject({ from: "no-reply@keyward.test", to: ["alice@example.com"] });
    expect(mail!.raw).toMatch(/^Subject: Your sign-in link\r$/m);
    expect(mail!.raw).toMatch(/^To: alice@example\.com\r$/m);
    expect(mail!.raw).toContain("text/plain");
    expect(mail!.raw).toContain("text/html");
    expect(mail!.decoded).toContain(`http://localhost:8080/login/ott?token=${TOKEN}`);
    expect(mail!.decoded).toContain(`<a href="http://localhost:8080/login/ott?token=${TOKEN}">Sign in</a>`);
  });

  it("mails an MFA code with its page, and a reset link, each with its own subject", async () => {
    const delivery = new SmtpOneTimeTokenDelivery({ smtp: settings() });
    await delivery.deliver({
      ...message("mfa-code"),
      token: "482913",
      link: "http://localhost:8080/mfa/ott",
    });
    await delivery.deliver({
      ...message("password-reset"),
      link: `http://localhost:8080/reset-password?token=${TOKEN}`,
    });
    const [code, reset] = await server.waitFor(2);
    expect(code!.raw).toMatch(/^Subject: Your verification code\r$/m);
    expect(code!.decoded).toContain("Your verification code is 482913");
    expect(code!.decoded).toContain("<strong>482913</strong>");
    expect(reset!.raw).toMatch(/^Subject: Reset your password\r$/m);
    expect(reset!.decoded).toContain(`reset-password?token=${TOKEN}`);
  });

  it.each([
    ["a username that is no address", "alice"],
    ["a CR/LF header injection", "alice@example.com\r\nBcc: eve@evil.test"],
    ["two recipients", "alice@example.com,eve@evil.test"],
    ["a display name", "Eve <eve@evil.test>"],
    ["an oversized address", `${"a".repeat(250)}@example.com`],
  ])("refuses %s and sends nothing", async (_what, to) => {
    const error = await failure(
      new SmtpOneTimeTokenDelivery({ smtp: settings() }).deliver(message("email", to)),
    );
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain("evil");
    expect(server.received).toEqual([]);
  });

  it("refuses a template's subject with a line break (no header injection) and sends nothing", async () => {
    const templates = {
      render: (m: OneTimeTokenMessage) => ({
        ...defaultMailTemplates.render(m),
        subject: "Hi\r\nBcc: eve@evil.test",
      }),
    };
    const delivery = new SmtpOneTimeTokenDelivery({ smtp: settings(), templates });
    await failure(delivery.deliver(message("email")));
    expect(server.received).toEqual([]);
  });

  it("fails with DELIVERY_FAILED when the server refuses the recipient; the cause holds no token nor address", async () => {
    server.refuse.add("alice.x@example.com");
    const delivery = new SmtpOneTimeTokenDelivery({ smtp: settings() });
    const error = await failure(delivery.deliver(message("email", "Alice.X@example.com")));
    const cause = String((error.cause as Error).message);
    expect(cause).toMatch(/^EENVELOPE 550/);
    expect(cause).not.toContain(TOKEN);
    // The server echoed the address lower-cased: redacted in any case.
    expect(cause.toLowerCase()).not.toContain("alice.x@example.com");
    expect(cause).toContain("[redacted]");
  });

  it("fails with DELIVERY_FAILED on a wrong password, which no message repeats", async () => {
    const wrong = settings({ password: "wrong-pass-123" });
    const error = await failure(new SmtpOneTimeTokenDelivery({ smtp: wrong }).deliver(message("email")));
    expect(String((error.cause as Error).message)).toMatch(/^EAUTH/);
    expect(JSON.stringify([error.message, String((error.cause as Error).message)])).not.toContain(
      "wrong-pass",
    );
  });

  it("fails with DELIVERY_FAILED when nothing listens, and when STARTTLS is required but not offered", async () => {
    const closed = await startTestSmtpServer();
    await closed.close();
    const unreachable = await failure(
      new SmtpOneTimeTokenDelivery({ smtp: settings({ port: closed.port }) }).deliver(message("email")),
    );
    expect(String((unreachable.cause as Error).message)).toMatch(/^(ECONNECTION|ESOCKET)/);
    const plain = new SmtpOneTimeTokenDelivery({ smtp: settings({ security: "starttls" }) });
    await failure(plain.deliver(message("email")));
    expect(server.received).toEqual([]);
  });

  it("refuses settings without a host or a sender address", () => {
    expect(() => new SmtpOneTimeTokenDelivery({ smtp: settings({ host: "" }) })).toThrow(
      /platform\.mail\.smtp\.host/,
    );
    expect(() => new SmtpOneTimeTokenDelivery({ smtp: settings({ from: "nobody" }) })).toThrow(
      /platform\.mail\.smtp\.from/,
    );
  });
});
