import { vi } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { ManualClock } from "../../kernel/clock.js";
import { InProcessEventBus, type PlatformEvent } from "../../kernel/event-bus.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import type { LogFields, Logger } from "../../kernel/logger.js";
import type { AvailableFactors } from "../decision/default-mfa-policy-provider.js";
import { MfaDecision } from "../decision/mfa-decision.js";
import type { MfaPolicyContext } from "../decision/mfa-policy-context.js";
import type { MfaPolicyProvider } from "../decision/mfa-policy-provider.js";
import type { FactorType } from "../factor-type.js";
import { AIAdaptiveMfaPolicyProvider } from "./ai-adaptive-mfa-policy-provider.js";
import { InMemorySignInHistoryStore } from "./in-memory-sign-in-history-store.js";
import type { RiskAnalyzer, RiskAssessment, RiskSignal } from "./risk-analyzer.js";
import { RISK_THRESHOLDS_DEFAULTS } from "./risk-thresholds.js";
import type { SignInHistoryStore } from "./sign-in-history-store.js";

/** 2026-01-01 09:30 UTC. */
export const T0 = Date.UTC(2026, 0, 1, 9, 30);

/** The fallback's decision in every test. */
export const FALLBACK_DECISION = MfaDecision.challenged("role ROLE_ADMIN requires MFA");

/** A Logger that keeps what it is given, for assertions. */
export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; fields: LogFields | undefined }[] = [];
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: "error", message, fields });
  }
}

/** An analyzer stub answering `answer` (anything, to test validation). */
export function answering(answer: unknown): RiskAnalyzer & { analyze: ReturnType<typeof vi.fn> } {
  return { analyze: vi.fn(async () => answer as RiskAssessment) };
}

/** An analyzer stub answering a fixed score. */
export function scoring(score: number, signals: RiskSignal[] = []): RiskAnalyzer {
  return answering({ score, signals, analyzer: "stub" });
}

/** The policy context of alice's primary sign-in (ROLE_USER unless `authorities` says otherwise). */
export function context(
  request: Partial<MfaPolicyContext["request"]> = {},
  flowFactors: readonly FactorType[] = ["OTT", "PASSKEY"],
  requiredFactors = 1,
  authorities: readonly string[] = ["ROLE_USER"],
): MfaPolicyContext {
  const primary: Authentication = {
    userId: "u1",
    username: "alice",
    authorities,
    method: "form",
    authenticatedAt: T0,
    factors: [{ type: "pwd", at: T0 }],
  };
  return {
    request: {
      remoteAddress: "203.0.113.7",
      deviceId: "laptop",
      userAgent: "Firefox/1",
      path: "/login",
      method: "POST",
      ...request,
    },
    user: { userId: "u1", username: "alice", authorities },
    primary,
    flow: { typeName: "mfa", factors: flowFactors, requiredFactors },
  };
}

/** What a provider test inspects. */
export interface ProviderFixture {
  provider: AIAdaptiveMfaPolicyProvider;
  clock: ManualClock;
  events: PlatformEvent[];
  audit: InMemoryAuditSink;
  logger: RecordingLogger;
  fallback: MfaPolicyProvider & { evaluateInitialMfaRequirement: ReturnType<typeof vi.fn> };
  history: SignInHistoryStore;
}

/** Builds an AIAdaptiveMfaPolicyProvider with default thresholds, a recording bus, sink and logger. */
export function providerFixture(
  over: {
    analyzer?: RiskAnalyzer | undefined;
    timeoutMs?: number;
    history?: SignInHistoryStore;
    availableFactors?: AvailableFactors;
    allowSkipForRequiredAuthorities?: boolean;
  } = {},
): ProviderFixture {
  const clock = new ManualClock(T0);
  const bus = new InProcessEventBus();
  const events: PlatformEvent[] = [];
  bus.on("*", (event) => {
    events.push(event);
  });
  const audit = new InMemoryAuditSink(100, clock);
  const logger = new RecordingLogger();
  const fallback = { evaluateInitialMfaRequirement: vi.fn(async () => FALLBACK_DECISION) };
  const history = over.history ?? new InMemorySignInHistoryStore({ clock });
  const provider = new AIAdaptiveMfaPolicyProvider({
    analyzer: over.analyzer,
    history,
    fallback,
    thresholds: RISK_THRESHOLDS_DEFAULTS,
    requiredAuthorities: ["ROLE_ADMIN"],
    ...(over.allowSkipForRequiredAuthorities === undefined
      ? {}
      : { allowSkipForRequiredAuthorities: over.allowSkipForRequiredAuthorities }),
    timeoutMs: over.timeoutMs ?? 1_500,
    clock,
    events: bus,
    audit,
    logger,
    ...(over.availableFactors === undefined ? {} : { availableFactors: over.availableFactors }),
  });
  return { provider, clock, events, audit, logger, fallback, history };
}
