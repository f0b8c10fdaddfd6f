import { MfaRuntime } from "@keyward/core/mfa";
import { type MfaStateMachineEvent, AuditSink, Logger, Clock, MfaEventListener } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InMemoryAuditSink } from "../../../packages/core/src/kernel/in-memory-audit-sink.js";
import {
  type IdentityTestServer,
  newOutboxFile,
  startAdminMfa,
  startMfaServer,
  verify,
  wrongCode,
} from "./mfa-test-support.js";

describe("MFA events: listeners through DI, the event bus and the AuditSink", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  const seen: MfaStateMachineEvent[] = [];
  const logged: string[] = [];
  const clock = new ManualClock(Date.UTC(2026, 10, 25, 12));
  beforeAll(async () => {
    s = await startMfaServer({
      outbox: file,
      // 0 ms: every step is "slow", so each one also publishes a PerformanceAlertEvent.
      properties: { "platform.auth.mfa.performanceAlertMs": 0 },
      register: (c) => {
        c.registerInstance(Clock, clock);
        c.registerInstance(Logger, {
          info: () => {},
          warn: () => {},
          error: (message: string) => void logged.push(message),
        });
        c.register(MfaEventListener, { useValue: { onMfaEvent: (e) => void seen.push(e) } });
        c.register(MfaEventListener, {
          useValue: {
            onMfaEvent: () => {
              throw new Error("a broken listener never disturbs the flow");
            },
          },
        });
      },
    });
  });
  afterAll(() => s.close());

  const changes = () =>
    seen
      .filter((e) => e.type === "StateChangeEvent")
      .map((e) => e.type === "StateChangeEvent" && `${e.fromState}>${e.toState}`);

  it("publishes a StateChangeEvent for every transition with userId, fromState and toState", async () => {
    seen.length = 0;
    const { b, code, csrf } = await startAdminMfa(s, file);
    expect((await verify(b, csrf, code)).status).toBe(200);
    expect(changes()).toEqual([
      "PRIMARY_AUTHENTICATION_COMPLETED>FACTOR_SELECTION",
      "FACTOR_SELECTION>AWAITING_CHALLENGE_INITIATION",
      "AWAITING_CHALLENGE_INITIATION>OTT_CHALLENGE",
      "OTT_CHALLENGE>MFA_SUCCESSFUL",
    ]);
    const first = seen.find((e) => e.type === "StateChangeEvent");
    expect(first).toMatchObject({
      userId: expect.any(String),
      flow: "mfa",
      mfaSessionId: expect.any(String),
    });
    expect(
      seen.some(
        (e) => e.type === "PerformanceAlertEvent" && e.thresholdMs === 0 && e.operation.startsWith("step:"),
      ),
    ).toBe(true);
  });

  it("publishes ErrorEvents: SECURITY for a wrong code, LIMIT_EXCEEDED for the lock, TIMEOUT for a timed-out flow", async () => {
    seen.length = 0;
    const { b, code, csrf } = await startAdminMfa(s, file);
    for (let i = 0; i < 5; i++) await verify(b, csrf, wrongCode(code));
    const errors = seen.filter((e) => e.type === "ErrorEvent");
    expect(errors.filter((e) => e.type === "ErrorEvent" && e.errorType === "SECURITY")).toHaveLength(4);
    expect(errors.filter((e) => e.type === "ErrorEvent" && e.errorType === "LIMIT_EXCEEDED")).toHaveLength(1);
    clock.advance(16 * 60_000);
    seen.length = 0;
    const next = await startAdminMfa(s, file);
    clock.advance(11 * 60_000);
    expect((await verify(next.b, next.csrf, next.code)).status).toBe(401);
    expect(
      seen.filter((e) => e.type === "ErrorEvent").map((e) => e.type === "ErrorEvent" && e.errorType),
    ).toContain("TIMEOUT");
  });

  it("publishes a host's CustomEvent, and every MFA event reaches the AuditSink", async () => {
    seen.length = 0;
    await s.platform.resolve(MfaRuntime).publishCustom("risk.review", { ticket: 42 }, "u-1");
    expect(seen).toEqual([
      expect.objectContaining({
        type: "CustomEvent",
        name: "risk.review",
        payload: { ticket: 42 },
        userId: "u-1",
      }),
    ]);
    const audited = (s.platform.resolve(AuditSink) as InMemoryAuditSink).events().map((e) => e.type);
    for (const type of ["StateChangeEvent", "ErrorEvent", "PerformanceAlertEvent", "CustomEvent"]) {
      expect(audited).toContain(`mfa.event.${type}`);
    }
  });
});
