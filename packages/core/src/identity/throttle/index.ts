export {
  IN_MEMORY_THROTTLE_MAX_ENTRIES,
  InMemoryLoginThrottle,
  type InMemoryLoginThrottleOptions,
} from "./in-memory-login-throttle.js";
export {
  LOGIN_THROTTLE_DEFAULTS,
  LoginThrottle,
  type LoginThrottleLimits,
  type ThrottleKey,
  type ThrottleVerdict,
} from "./login-throttle.js";
export {
  THROTTLE_MAX_FAILURES_PER_ACCOUNT_AND_IP,
  THROTTLE_MAX_FAILURES_PER_IP,
  THROTTLE_PROPERTIES,
  THROTTLE_WINDOW,
  throttleOptionsFromProperties,
} from "./login-throttle.properties.js";
export { throttleAddressKey, throttleKeys, type ThrottleStorageKeys } from "./throttle-keys.js";
