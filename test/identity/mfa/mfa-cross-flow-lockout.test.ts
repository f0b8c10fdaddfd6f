import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type IdentityTestServer,
  newOutboxFile,
  startAdminMfa,
  startMfaServer,
  verify,
  wrongCode,
} from "./mfa-test-support.js";

describe("failed MFA codes count per user across flows", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file });
  });
  afterAll(() => s.close());

  it("does not give a fresh budget to a new flow: 3 + 2 wrong codes lock the account", async () => {
    const first = await startAdminMfa(s, file);
    for (let i = 0; i < 3; i++) {
      const res = await verify(first.b, first.csrf, wrongCode(first.code));
      expect(res.status).toBe(401);
    }
    const second = await startAdminMfa(s, file);
    expect((await verify(second.b, second.csrf, wrongCode(second.code))).status).toBe(401);
    const locked = await verify(second.b, second.csrf, wrongCode(second.code));
    expect(locked.status).toBe(423);
    expect(await locked.json()).toMatchObject({ code: "ACCOUNT_LOCKED" });
  });

  it("a verified code clears the user's count", async () => {
    const outboxFile = newOutboxFile();
    const server = await startMfaServer({ outbox: outboxFile });
    try {
      const a = await startAdminMfa(server, outboxFile);
      for (let i = 0; i < 4; i++) expect((await verify(a.b, a.csrf, wrongCode(a.code))).status).toBe(401);
      expect((await verify(a.b, a.csrf, a.code)).status).toBe(200);
      const b = await startAdminMfa(server, outboxFile);
      expect((await verify(b.b, b.csrf, wrongCode(b.code))).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
