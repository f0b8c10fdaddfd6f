import { EventBus, type PlatformEvent, RiskAnalyzer, type RiskAssessment } from "@keyward/core/ports";
import { afterEach, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  demoSecurity,
  type IdentityTestServer,
  newOutboxFile,
  primaryForm,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

const servers: IdentityTestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** An adaptive server where no role needs MFA by the static rules (so the fallback lets `user` in). */
async function adaptiveServer(
  extra: Record<string, unknown>,
  analyzer?: { analyze: () => Promise<RiskAssessment> },
): Promise<{ s: IdentityTestServer; events: PlatformEvent[]; file: string }> {
  const events: PlatformEvent[] = [];
  const file = newOutboxFile();
  const s = await startMfaServer({
    outbox: file,
    security: demoSecurity,
    properties: {
      "platform.auth.mfa.policy": "adaptive",
      "platform.auth.mfa.requiredAuthorities": "",
      ...extra,
    },
    register: analyzer ? (c) => c.registerInstance(RiskAnalyzer, analyzer) : undefined,
  });
  servers.push(s);
  s.platform.resolve(EventBus).on("*", (e) => {
    if (e.type.startsWith("mfa.adaptive.")) events.push(e);
  });
  return { s, events, file };
}

async function signIn(
  s: IdentityTestServer,
  deviceId = "laptop-1",
  b: Browser = new Browser(s.url),
): Promise<Record<string, unknown>> {
  const csrf = await b.csrfFrom("/login");
  const res = await b.postForm(
    "/login",
    { username: "user", password: "password", _csrf: csrf },
    { accept: "application/json", "x-device-id": deviceId },
  );
  return (await res.json()) as Record<string, unknown>;
}

describe("AIAdaptiveMfaPolicyProvider over HTTP", () => {
  it("the built-in heuristic analyzer challenges a first sign-in (no history), then learns the device", async () => {
    const { s, events, file } = await adaptiveServer({});
    const b = new Browser(s.url);
    const csrf = await b.csrfFrom("/login");
    const { result, code } = await codeAfter(file, "user", () =>
      b.postForm(
        "/login",
        { username: "user", password: "password", _csrf: csrf },
        { accept: "application/json", "x-device-id": "laptop-1" },
      ),
    );
    expect(await result.json()).toMatchObject({ mfaRequired: true });
    expect(events.at(-1)).toMatchObject({
      type: "mfa.adaptive.assessed",
      payload: { decision: "CHALLENGED" },
    });
    // Completing the sign-in records the network and the device of the signed cookie it issues; the
    // same browser (its cookie) then scores 0.
    expect((await verify(b, await csrfOfSession(b), code)).status).toBe(200);
    expect(b.cookies.get("PLATFORM_DEVICE")).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(await signIn(s, "laptop-1", b)).toMatchObject({ success: true });
    expect(events.at(-1)).toMatchObject({
      type: "mfa.adaptive.assessed",
      payload: { decision: "NO_MFA_REQUIRED", score: 0 },
    });
    // Another browser is a new device, even with the same X-Device-Id (0.35: the "optional" band, still
    // no MFA by the default thresholds).
    expect(await signIn(s, "laptop-1")).toMatchObject({ success: true });
    expect(events.at(-1)).toMatchObject({
      type: "mfa.adaptive.assessed",
      payload: { score: 0.35, band: "optional", signals: [expect.objectContaining({ name: "new-device" })] },
    });
  });

  it.each([
    ["absent", { "platform.auth.mfa.adaptive.builtin-analyzer": false }, undefined],
    ["error", {}, { analyze: async (): Promise<RiskAssessment> => Promise.reject(new Error("model down")) }],
    [
      "timeout",
      { "platform.auth.mfa.adaptive.timeoutMs": 30 },
      { analyze: () => new Promise<RiskAssessment>(() => {}) },
    ],
    [
      "invalid",
      {},
      {
        analyze: async (): Promise<RiskAssessment> => ({
          score: Number.NaN,
          signals: [],
          analyzer: "broken",
        }),
      },
    ],
  ] as const)(
    "falls back to the default rules when the analyzer is %s, and says why",
    async (reason, props, analyzer) => {
      const { s, events } = await adaptiveServer(props, analyzer);
      const answer = await signIn(s);
      expect(answer).toMatchObject({ success: true });
      expect(events).toContainEqual(
        expect.objectContaining({
          type: "mfa.adaptive.fallback",
          payload: expect.objectContaining({ reason }),
        }),
      );
    },
  );

  it("escalates a score at or above the strict threshold", async () => {
    const { s } = await adaptiveServer(
      {},
      {
        analyze: async () => ({
          score: 0.95,
          signals: [{ name: "impossible-travel", weight: 0.95 }],
          analyzer: "test",
        }),
      },
    );
    const b = new Browser(s.url);
    const res = await primaryForm(b, "user", "password", true);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ escalated: true, status: "PENDING" });
  });
});
