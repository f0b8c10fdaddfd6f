export {
  MFA_HISTORY_LIMIT,
  newFactorContext,
  selectableFactors,
  type CompletedFactor,
  type FactorChallenge,
  type FactorContext,
  type FactorHistoryEntry,
  type NewFactorContextInput,
} from "./factor-context.js";
export { DEFAULT_FACTOR_CONTEXT_RETENTION_MS, FactorContextRepository } from "./factor-context-repository.js";
export {
  InMemoryFactorContextRepository,
  type InMemoryFactorContextRepositoryOptions,
} from "./in-memory-factor-context-repository.js";
export { MFA_EVENTS, type MfaEvent } from "./mfa-event.js";
export { MFA_STATES, TERMINAL_MFA_STATES, isTerminal, type MfaState } from "./mfa-state.js";
export {
  MFA_STATE_MACHINE_DEFAULTS,
  MfaStateMachine,
  type MfaStateMachineOptions,
  type MfaStepInput,
} from "./mfa-state-machine.js";
export {
  guardedTransitions,
  transitions,
  type MfaGuardOutcome,
  type MfaGuardedBranch,
  type MfaTransition,
} from "./mfa-transitions.js";
