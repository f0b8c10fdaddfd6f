import { browserStorage, readItem, writeItem } from "./browser-storage.js";

/** The localStorage key of the device id. */
export const DEVICE_ID_KEY = "platform_device_id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of this page's lifetime when the browser blocks localStorage. */
let memoryDeviceId: string | undefined;

/**
 * This browser's stable device id (`X-Device-Id`): a random UUID kept in localStorage under
 * `platform_device_id`, made on first use. When storage is blocked it lives in memory for the
 * page's lifetime (the server then sees a new device each visit, which only raises the risk score).
 * It identifies a browser, never a person: it carries no data and the server ignores malformed values.
 * The server takes it as a hint only: a device becomes known through the HttpOnly `PLATFORM_DEVICE`
 * cookie it issues after a sign-in, never through this header.
 */
export function deviceId(): string {
  const storage = browserStorage("localStorage");
  const stored = readItem(storage, DEVICE_ID_KEY);
  if (stored !== undefined && UUID.test(stored)) return stored;
  const fresh = memoryDeviceId ?? randomUuid();
  if (!writeItem(storage, DEVICE_ID_KEY, fresh)) memoryDeviceId = fresh;
  return fresh;
}

/** A v4 UUID: `crypto.randomUUID` (secure contexts), else built from `crypto.getRandomValues`. */
export function randomUuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
