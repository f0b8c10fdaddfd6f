export {
  type AvailableFactors,
  DefaultMfaPolicyProvider,
  type DefaultMfaPolicyProviderOptions,
  availableFactorsFor,
} from "./default-mfa-policy-provider.js";
export { MfaDecision, type MfaDecisionType } from "./mfa-decision.js";
export {
  DEVICE_ID_HEADER,
  type MfaPolicyContext,
  type MfaPolicyExchange,
  type MfaPolicyFlow,
  type MfaPolicyRequest,
  type MfaPolicyUser,
  parseDeviceId,
  policyContextFrom,
} from "./mfa-policy-context.js";
export { MfaPolicyProvider } from "./mfa-policy-provider.js";
