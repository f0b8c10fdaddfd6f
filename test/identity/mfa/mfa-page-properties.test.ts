import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type IdentityTestServer,
  type MfaRequired,
  newOutboxFile,
  primaryForm,
  startMfaServer,
} from "./mfa-test-support.js";
import { Browser } from "../identity-test-server.js";

describe("MFA page URLs from platform.auth.mfa.pages.*", () => {
  let s: IdentityTestServer;
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: newOutboxFile(),
      properties: {
        "platform.auth.mfa.pages.select-factor": "/choose-a-factor",
        "platform.auth.mfa.pages.failure": "/oops",
      },
      security: (r) =>
        r
          .mfa((m) =>
            m
              .primaryAuthentication((p) => p.formLogin())
              .ott()
              .mfaPage((p) => p.failurePageUrl("/mfa-went-wrong")),
          )
          .session()
          .build(),
    });
  });
  afterAll(() => s.close());

  it("uses the property's URL, and an mfaPage(...) override wins over it", async () => {
    const res = await primaryForm(new Browser(s.url), "admin", "admin", true);
    const body = (await res.json()) as MfaRequired;
    expect(body.selectFactorUrl).toBe("/choose-a-factor");
    const config = (await (await new Browser(s.url).fetch("/api/mfa/config")).json()) as {
      mfa: { failure: string };
    };
    expect(config.mfa.failure).toBe("/mfa-went-wrong");
  });

  it("refuses a page URL that is not a local path at start-up", async () => {
    await expect(
      startMfaServer({
        outbox: newOutboxFile(),
        properties: { "platform.auth.mfa.pages.failure": "https://evil.example/x" },
      }),
    ).rejects.toMatchObject({ code: "PROPERTY_INVALID" });
  });
});
