// @platform/core/mfa: the MFA module's services a host calls or composes (the policy providers, the
// adaptive risk analyzer, the runtime, the state machine and escalations), the default adapters of
// its ports (the ports themselves are in /ports) and the types of what they take and answer.

// The plugin
export { mfaPlugin } from "./mfa-plugin.js";
export { MfaFlows } from "./chain/mfa-flows.js";
// The module's error codes merge into PlatformErrorCodes (types); its plugin contributes the table.
import "./mfa-error-codes.js";
// The types of `.mfa()` (declaration merging on the registry DSL); mfaPlugin contributes the method.
import "./dsl/mfa-dsl.js";

// Step-up: the `recentFactor` rule and the challenge it (or a zero-trust CHALLENGE) answers with
export { recentFactor } from "./step-up/recent-factor.js";
export { type StartedStepUpFields, stepUpChallenge } from "./step-up/step-up-challenge.js";

// Deciding whether a sign-in needs a second factor
export {
  type AvailableFactors,
  availableFactorsFor,
  DefaultMfaPolicyProvider,
  type DefaultMfaPolicyProviderOptions,
} from "./decision/default-mfa-policy-provider.js";
export { MfaDecision, type MfaDecisionType } from "./decision/mfa-decision.js";
export type {
  MfaPolicyContext,
  MfaPolicyFlow,
  MfaPolicyRequest,
  MfaPolicyUser,
} from "./decision/mfa-policy-context.js";
export {
  AIAdaptiveMfaPolicyProvider,
  type AIAdaptiveMfaPolicyProviderOptions,
} from "./adaptive/ai-adaptive-mfa-policy-provider.js";
export { HeuristicRiskAnalyzer } from "./adaptive/heuristic-risk-analyzer.js";
export {
  InMemorySignInHistoryStore,
  type InMemorySignInHistoryStoreOptions,
} from "./adaptive/in-memory-sign-in-history-store.js";
export type { RiskBand, RiskThresholds } from "./adaptive/risk-thresholds.js";
export { FACTOR_TYPES, type FactorType, parseFactorType } from "./factor-type.js";
// How sign-in history normalises what it remembers (shared so every SignInHistoryStore keeps the same keys).
export { networkOf } from "./adaptive/sign-in-history.js";
export { parseDeviceId } from "./decision/mfa-policy-context.js";

// Running a flow
export { MfaRuntime } from "./flow/mfa-runtime.js";
export type { MfaBeginResult, MfaRuntimeOptions, StartedChallenge } from "./flow/mfa-runtime-options.js";
export type { MfaFlow } from "./flow/mfa-flow.js";
export { MFA_BINDING_COOKIE, MFA_BINDING_HEADER } from "./flow/mfa-caller-binding.js";
export { InMemoryMfaLockouts } from "./flow/in-memory-mfa-lockouts.js";
export { type MfaSettings, mfaSettingsFromProperties } from "./mfa.properties.js";
export { DEFAULT_FACTOR_CONTEXT_RETENTION_MS } from "./state/factor-context-repository.js";
export {
  InMemoryFactorContextRepository,
  type InMemoryFactorContextRepositoryOptions,
} from "./state/in-memory-factor-context-repository.js";
export { MFA_EVENTS, type MfaEvent } from "./state/mfa-event.js";
export { isTerminal, MFA_STATES, type MfaState } from "./state/mfa-state.js";
export {
  MfaStateMachine,
  type MfaStateMachineOptions,
  type MfaStepInput,
} from "./state/mfa-state-machine.js";
export {
  type CustomEvent,
  type ErrorEvent,
  MFA_ERROR_EVENT_CODES,
  type MfaErrorEventCode,
  type MfaErrorType,
  type MfaStateMachineEvent,
  type PerformanceAlertEvent,
  type StateChangeEvent,
} from "./events/mfa-state-machine-events.js";

// Escalations (an administrator's review of a risky sign-in)
export { EscalationService, type EscalationPoll } from "./escalation/escalation-service.js";
export {
  InMemoryEscalationStore,
  type InMemoryEscalationStoreOptions,
} from "./escalation/in-memory-escalation-store.js";

// Known devices
export { HmacDeviceCookies, type HmacDeviceCookiesOptions } from "./device/hmac-device-cookies.js";
