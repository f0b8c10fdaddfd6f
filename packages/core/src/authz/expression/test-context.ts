import type { Authentication } from "../../identity/authentication/authentication.js";
import type { EvaluationContext } from "./evaluation-context.js";

/** 2026-03-04T10:15:00Z, a Wednesday: the default decision time of test contexts. */
export const TEST_NOW = Date.UTC(2026, 2, 4, 10, 15);

/** A signed-in user for tests: `alice` / `u-1` with the given authorities. */
export function testUser(...authorities: string[]): Authentication {
  return { userId: "u-1", username: "alice", authorities, method: "form", authenticatedAt: 0, factors: [] };
}

/** An evaluation context for tests: anonymous, from 10.0.0.1, UTC, at TEST_NOW, no zero-trust analysis. */
export function testContext(overrides: Partial<EvaluationContext> = {}): EvaluationContext {
  return {
    authentication: undefined,
    remoteAddress: "10.0.0.1",
    now: TEST_NOW,
    timeZone: "UTC",
    zeroTrustAction: undefined,
    ...overrides,
  };
}
