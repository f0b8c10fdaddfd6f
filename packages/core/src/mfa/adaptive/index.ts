export {
  type AdaptiveAssessedPayload,
  type AdaptiveFallbackPayload,
  type AdaptiveFallbackReason,
  AIAdaptiveMfaPolicyProvider,
  type AIAdaptiveMfaPolicyProviderOptions,
  MFA_ADAPTIVE_ASSESSED_AUDIT,
  MFA_ADAPTIVE_ASSESSED_EVENT,
  MFA_ADAPTIVE_FALLBACK_AUDIT,
  MFA_ADAPTIVE_FALLBACK_EVENT,
} from "./ai-adaptive-mfa-policy-provider.js";
export {
  HEURISTIC_ANALYZER_NAME,
  HEURISTIC_WEIGHTS,
  HeuristicRiskAnalyzer,
} from "./heuristic-risk-analyzer.js";
export {
  IN_MEMORY_SIGN_IN_HISTORY_MAX_USERS,
  InMemorySignInHistoryStore,
  type InMemorySignInHistoryStoreOptions,
} from "./in-memory-sign-in-history-store.js";
export {
  RiskAnalyzer,
  type RiskAssessment,
  type RiskInput,
  type RiskSignal,
} from "./risk-analyzer.js";
export {
  ADAPTIVE_PROPERTIES,
  MFA_ADAPTIVE_TIMEOUT,
  MFA_ADAPTIVE_TIMEOUT_DEFAULT_MS,
  RISK_THRESHOLDS_DEFAULTS,
  type RiskBand,
  type RiskThresholds,
  ZEROTRUST_THRESHOLD_OPTIONAL,
  ZEROTRUST_THRESHOLD_REQUIRED,
  ZEROTRUST_THRESHOLD_SKIP,
  ZEROTRUST_THRESHOLD_STRICT,
  checkRiskThresholds,
  riskBandOf,
  riskThresholdsFromProperties,
} from "./risk-thresholds.js";
export { EMPTY_SIGN_IN_HISTORY, type SignInHistory, networkOf } from "./sign-in-history.js";
export {
  SIGN_IN_HISTORY_LIMITS,
  type SignInFailure,
  SignInHistoryStore,
  type SignInSuccess,
} from "./sign-in-history-store.js";
