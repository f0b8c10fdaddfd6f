import type { OneTimeTokenDelivery } from "../../identity/ott/one-time-token-delivery.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { Logger } from "../../kernel/logger.js";
import type { SignInHistoryStore } from "../adaptive/sign-in-history-store.js";
import type { AvailableFactors } from "../decision/default-mfa-policy-provider.js";
import type { DeviceCookies } from "../device/device-cookies.js";
import type { Escalation } from "../escalation/escalation.js";
import type { EscalationService } from "../escalation/escalation-service.js";
import type { MfaEventPublisher } from "../events/mfa-event-publisher.js";
import type { MfaSettings } from "../mfa.properties.js";
import type { FactorCatalog } from "../factor-family/factor-catalog.js";
import type { FactorContext } from "../state/factor-context.js";
import type { FactorContextRepository } from "../state/factor-context-repository.js";
import type { MfaStateMachine } from "../state/mfa-state-machine.js";
import type { MfaCallerBinding } from "./mfa-caller-binding.js";
import type { MfaLockouts } from "./mfa-lockouts.js";

/** The ports and settings the MFA runtime works with. */
export interface MfaRuntimeOptions {
  contexts: FactorContextRepository;
  machine: MfaStateMachine;
  binding: MfaCallerBinding;
  lockouts: MfaLockouts;
  delivery: OneTimeTokenDelivery;
  clock: Clock;
  ids: IdGenerator;
  audit: AuditSink;
  logger: Logger;
  settings: MfaSettings;
  /** The public base URL for links in messages (platform.server.public-url, else the local origin). */
  publicUrl?: () => string;
  /** Where StateChange, Error, PerformanceAlert and Custom events go. */
  events: MfaEventPublisher;
  /** A step slower than this publishes a PerformanceAlertEvent. */
  performanceAlertMs: number;
  /** Sign-in history the adaptive policy reads (successes recorded when a sign-in completes). */
  history: SignInHistoryStore;
  /** The signed device cookie: read for the policy, issued when a sign-in completes. */
  devices: DeviceCookies;
  /** Holds ESCALATED logins for administrator review. */
  escalations: EscalationService;
  /**
   * The second-factor floor: holders of these authorities are never held for review on the password
   * alone; an ESCALATED decision becomes a challenge. `platform.auth.mfa.requiredAuthorities`, or
   * empty when `...adaptive.allow-skip-for-required-authorities` lifts the floor. Default empty.
   */
  secondFactorFloor?: readonly string[];
  /** The factors a user can use (narrows that challenge); the flow's factors when omitted. */
  availableFactors?: AvailableFactors;
  /** The factor family (offered members): which factor sends a code, opens a generic challenge, weighs. */
  factors: FactorCatalog;
  /**
   * The HMAC key of MFA codes, read when a code is made or checked: the same on every instance that
   * shares the FactorContextRepository (the MFA plugin keeps it in the KeyRing).
   */
  codeSecret: () => string | Uint8Array;
}

/** A challenge just started: its FactorContext and the binding value its caller presents. */
export interface StartedChallenge {
  context: FactorContext;
  /** `<mfaSessionId>.<secret>`: the `PLATFORM_MFA` cookie's value, or the `X-MFA-Binding` header's. */
  binding: string;
}

/** What the policy decided after a primary authentication. */
export type MfaBeginResult =
  | { kind: "complete" }
  | {
      kind: "challenged";
      context: FactorContext;
      /** The caller's binding value (`<mfaSessionId>.<secret>`), also set as the `PLATFORM_MFA` cookie. */
      binding: string;
    }
  | {
      kind: "escalated";
      escalation: Escalation;
      /** The caller's binding value, also set as the `PLATFORM_ESCALATION` cookie. */
      binding: string;
    };
