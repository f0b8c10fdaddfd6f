import { DecisionPipeline } from "@keyward/core/decisions";
import { DecisionHistoryStore, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "../identity/mfa/mfa-test-support.js";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  startDemo,
} from "../support/demo-server.js";

// Issue #25 item 4: pressing "resend code" past the flow's code budget published LIMIT_EXCEEDED,
// which the decision pipeline read as an MFA lockout; the analyst escalated, and the administrator's
// next complete sign-in answered 423 ZERO_TRUST_REVIEW_REQUIRED on every page.
describe("the resend limit is no MFA lockout (issue #25 item 4)", () => {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await startDemo({}, { "platform.security.decision.enabled": true });
  });
  afterAll(() => demo.close());

  const url = (path: string) => `${demo.base}${path}`;
  const decided = () => demo.platform.resolve(DecisionPipeline).idle();

  it("12 select-factor calls in one flow, then the right code: no MFA_LOCKOUT decision, every page answers", async () => {
    const { result } = await demo.codeAfter("admin", () =>
      fetch(url("/api/login"), json("POST", { username: "admin", password: "admin" })),
    );
    const mfa = (await result.json()) as ApiMfaRequired;
    expect(mfa).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(
        url(mfa.endpoints.selectFactor),
        json("POST", { factorType: "OTT" }, bindingHeaders(mfa)),
      );
      statuses.push(res.status);
    }
    // 5 codes in all (the first at sign-in): 4 more sent, 8 refused with 429 TOO_MANY_ATTEMPTS.
    expect(statuses).toEqual([...Array(4).fill(200), ...Array(8).fill(429)]);
    await decided();
    await new Promise((r) => setTimeout(r, 150)); // the last delivery lands just after its answer
    const code = outbox(demo.outboxFile)
      .filter((l) => l.channel === "mfa-code" && l.username === "admin")
      .at(-1)!.token;

    const verified = await fetch(
      url(mfa.endpoints.verifyOtt),
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    expect(verified.status).toBe(200);
    const { accessToken } = (await verified.json()) as { accessToken: string };
    await decided();

    const headers = { authorization: `Bearer ${accessToken}` };
    for (const path of ["/api/me", "/admin/api/users", "/api/orders"]) {
      const res = await fetch(url(path), { headers });
      expect.soft(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    }

    const admin = await demo.platform.resolve(UserRepository).findByUsername("admin");
    const history = await demo.platform.resolve(DecisionHistoryStore).recentFor(admin!.id, 20);
    expect(history.map((r) => r.eventKind)).not.toContain("MFA_LOCKOUT");
    expect(history.map((r) => [r.eventKind, r.action])).toEqual([["SIGN_IN_COMPLETED", "ALLOW"]]);
  });
});
