export { type DeviceCookieKey, loadDeviceCookieKey } from "./device-cookie-key.js";
export {
  DEVICE_COOKIE_MAX_AGE,
  DEVICE_COOKIE_PROPERTIES,
  DEVICE_COOKIE_SECRET,
} from "./device-cookie.properties.js";
export { DEVICE_COOKIE, type DeviceCookieSource, DeviceCookies } from "./device-cookies.js";
export {
  HmacDeviceCookies,
  type HmacDeviceCookiesOptions,
  MIN_DEVICE_COOKIE_KEY_BYTES,
} from "./hmac-device-cookies.js";
