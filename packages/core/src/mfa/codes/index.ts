export {
  MFA_CODE_MAX_LENGTH,
  MFA_CODE_MIN_LENGTH,
  type MfaCodeOptions,
  type RandomInt,
  generateMfaCode,
  hashMfaCode,
  verifyMfaCode,
} from "./mfa-code.js";
export { type MinimumDurationOptions, withMinimumDuration } from "./min-delay.js";
