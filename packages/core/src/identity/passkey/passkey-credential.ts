/** Whether a credential lives on one device or syncs between devices (the authenticator's BE flag). */
export type PasskeyDeviceType = "singleDevice" | "multiDevice";

/**
 * One registered passkey (a WebAuthn public key credential) of one user. Binary values are stored
 * base64url (no padding), so every adapter can keep them as plain strings.
 */
export interface PasskeyCredential {
  /** The credential id the authenticator chose, base64url; unique across all users. */
  id: string;
  /** The platform account that owns it. */
  userId: string;
  /** The WebAuthn `user.id` given at registration: the user's random 32-byte handle, base64url. */
  userHandle: string;
  /** The credential's public key as COSE key bytes, base64url. */
  publicKey: string;
  /** The authenticator's signature counter seen last (0 for authenticators that keep none). */
  counter: number;
  /** How the browser can reach the authenticator (`internal`, `hybrid`, `usb`, ...), as reported. */
  transports: readonly string[];
  /** Single-device or multi-device (synced) credential. */
  deviceType: PasskeyDeviceType;
  /** Whether a multi-device credential was backed up when last seen. */
  backedUp: boolean;
  /** The authenticator model's AAGUID (all zeros for most passkeys with `none` attestation). */
  aaguid: string;
  /** The user's name for it, shown when they manage their passkeys. */
  label: string;
  /** Registration time, epoch milliseconds from the repository's Clock. */
  createdAt: number;
  /** Last successful sign-in with it, epoch milliseconds; undefined until first use. */
  lastUsedAt: number | undefined;
  /** Compare-and-set version: 1 after create, +1 on every counter update. */
  version: number;
}

/** What the service hands the repository to store; the repository assigns createdAt and version. */
export type NewPasskeyCredential = Omit<PasskeyCredential, "createdAt" | "lastUsedAt" | "version">;
