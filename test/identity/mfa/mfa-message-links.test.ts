import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type IdentityTestServer,
  newOutboxFile,
  outbox,
  startAdminMfa,
  startMfaServer,
} from "./mfa-test-support.js";

describe("MFA code messages", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file });
  });
  afterAll(() => s.close());

  it("carry an absolute link to the challenge page (the local origin when no public URL is set)", async () => {
    await startAdminMfa(s, file);
    const line = outbox(file)
      .filter((l) => l.channel === "mfa-code")
      .at(-1);
    expect(line?.link).toBe(`${s.url}/mfa/challenge/ott`);
  });

  it("use platform.server.public-url when it is set", async () => {
    const other = newOutboxFile();
    const server = await startMfaServer({
      outbox: other,
      properties: { "platform.server.public-url": "https://id.example.com" },
    });
    try {
      await startAdminMfa(server, other);
      expect(
        outbox(other)
          .filter((l) => l.channel === "mfa-code")
          .at(-1)?.link,
      ).toBe("https://id.example.com/mfa/challenge/ott");
    } finally {
      await server.close();
    }
  });
});
