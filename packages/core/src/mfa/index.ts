export { DefaultMfaPolicyProvider, availableFactorsFor } from "./decision/default-mfa-policy-provider.js";
export { MfaDecision, type MfaDecisionType } from "./decision/mfa-decision.js";
export type { MfaPolicyContext } from "./decision/mfa-policy-context.js";
export { MfaPolicyProvider } from "./decision/mfa-policy-provider.js";
export * from "./events/index.js";
export {
  AIAdaptiveMfaPolicyProvider,
  HeuristicRiskAnalyzer,
  InMemorySignInHistoryStore,
  RiskAnalyzer,
  SignInHistoryStore,
  type RiskAssessment,
  type RiskInput,
} from "./adaptive/index.js";
export { MFA_POLICY } from "./mfa-policy.properties.js";
export {
  EscalationService,
  EscalationStore,
  InMemoryEscalationStore,
  type Escalation,
  type EscalationStatus,
} from "./escalation/index.js";
export { FACTOR_TYPES, type FactorType, parseFactorType } from "./factor-type.js";
export { MFA_BINDING_COOKIE, MFA_BINDING_HEADER } from "./flow/mfa-caller-binding.js";
export { MFA_ERROR_STATUS } from "./flow/mfa-errors.js";
export type { MfaFlow } from "./flow/mfa-flow.js";
export { InMemoryMfaLockouts } from "./flow/in-memory-mfa-lockouts.js";
export { MfaLockouts } from "./flow/mfa-lockouts.js";
export { MfaRuntime } from "./flow/mfa-runtime.js";
export { MFA_PROPERTIES, type MfaSettings, mfaSettingsFromProperties } from "./mfa.properties.js";
export type { FactorContext } from "./state/factor-context.js";
export { FactorContextRepository } from "./state/factor-context-repository.js";
export { InMemoryFactorContextRepository } from "./state/in-memory-factor-context-repository.js";
export { MFA_EVENTS, type MfaEvent } from "./state/mfa-event.js";
export { MFA_STATES, type MfaState, isTerminal } from "./state/mfa-state.js";
export { MfaStateMachine } from "./state/mfa-state-machine.js";
export { transitions as mfaTransitions } from "./state/mfa-transitions.js";
