import { defineProperty, prop } from "../properties.js";

/** The key-encryption key that seals key material in the KeyStore. */
export const KEY_ENCRYPTION_KEY = defineProperty<string>({
  key: "platform.keys.encryption-key",
  schema: prop.text(),
  default: "",
  description:
    "Key-encryption key for the KeyStore (JWT signing keys, the device-cookie secret): at least 32 bytes, as UTF-8 text or `base64url:<data>`, the same on every instance. Required with a durable KeyStore (MongoDB), which never holds key material in clear; empty with the in-memory store: a random one per process. Secret: never log it.",
});
