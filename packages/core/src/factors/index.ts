// The factors module: secondary factors written as plugins of the MFA factor family (above `mfa`).
export { totpPlugin } from "./totp/totp-plugin.js";
export { recoveryCodesPlugin } from "./recovery-codes/recovery-codes-plugin.js";
