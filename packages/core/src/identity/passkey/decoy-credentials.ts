import { createHmac } from "node:crypto";
import { usernameKey } from "../users/username-key.js";

/** A credential descriptor of assertion options (`allowCredentials` entry). */
export interface CredentialDescriptor {
  id: string;
  transports?: string[];
}

/**
 * The `allowCredentials` answered for a username that has no passkey (unknown, or a user without
 * passkeys): one made-up credential id, HMAC-SHA256(key, usernameKey(username)) cut to 16 bytes, so the
 * same name always gets the same id and an unknown name looks like a known one with one passkey.
 */
export function decoyCredentials(key: Uint8Array, username: string): CredentialDescriptor[] {
  const id = createHmac("sha256", key).update(usernameKey(username)).digest().subarray(0, 16);
  return [{ id: id.toString("base64url"), transports: ["internal", "hybrid"] }];
}
