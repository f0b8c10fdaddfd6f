import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { KeyRing, NewKey } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { canonicalJson, type JsonValue } from "../../prompts/hashing/canonical-json.js";
import type { EncryptedPayload } from "./chain-entry.js";
import type { SealedPayload } from "./sealed-package.js";

/** The key-ring purpose of the keys that wrap package keys. */
export const PAYLOAD_KEY_PURPOSE = "evidence.payload";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals a package's payload (prompts and context) with AES-256-GCM under a fresh key of its own,
 * bound to the package id and hash (additional authenticated data), and wraps that key with the key
 * ring's active `evidence.payload` key. Destroying the wrapped key erases the payload for good; the
 * header and its hashes stay readable.
 */
export class PayloadCipher {
  constructor(private readonly o: { keys: KeyRing; newKid: () => string }) {}

  /** `payload` encrypted for package `packageId` of hash `packageHash`. */
  async encrypt(payload: SealedPayload, packageId: string, packageHash: string): Promise<EncryptedPayload> {
    const dataKey = randomBytes(32);
    const wrapping = await this.o.keys.active(PAYLOAD_KEY_PURPOSE, () => this.newKey());
    const text = Buffer.from(canonicalJson(payload as unknown as JsonValue), "utf8");
    return {
      ciphertext: seal(dataKey, text, `payload:${packageId}:${packageHash}`),
      wrappedKey: seal(Buffer.from(wrapping.secret), dataKey, `key:${packageId}`),
      kid: wrapping.kid,
    };
  }

  /**
   * The payload, or undefined when its key was destroyed (erased). EVIDENCE_UNREADABLE when the
   * wrapping key is gone or the ciphertext does not open (edited, or moved to another package).
   */
  async decrypt(
    payload: EncryptedPayload,
    packageId: string,
    packageHash: string,
  ): Promise<SealedPayload | undefined> {
    if (payload.wrappedKey === undefined) return undefined;
    const wrapping = (await this.o.keys.keys(PAYLOAD_KEY_PURPOSE)).find((k) => k.kid === payload.kid);
    if (wrapping === undefined) throw unreadable(packageId, "its wrapping key is no longer kept");
    try {
      const dataKey = open(Buffer.from(wrapping.secret), payload.wrappedKey, `key:${packageId}`);
      const text = open(dataKey, payload.ciphertext, `payload:${packageId}:${packageHash}`);
      return JSON.parse(text.toString("utf8")) as SealedPayload;
    } catch (cause) {
      throw unreadable(packageId, "its payload does not open", cause);
    }
  }

  private newKey(): NewKey {
    return { kid: this.o.newKid(), algorithm: "A256GCM", secret: new Uint8Array(randomBytes(32)) };
  }
}

function seal(key: Buffer, plain: Buffer, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return `${iv.toString("base64url")}.${body.toString("base64url")}`;
}

function open(key: Buffer, sealed: string, aad: string): Buffer {
  const [iv, body, ...rest] = sealed.split(".");
  if (!iv || !body || rest.length > 0) throw new Error("not a sealed value");
  const bytes = Buffer.from(body, "base64url");
  if (bytes.length < TAG_BYTES) throw new Error("sealed value too short");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
}

function unreadable(packageId: string, why: string, cause?: unknown): PlatformError {
  return new PlatformError("EVIDENCE_UNREADABLE", `Sealed package ${packageId.slice(0, 128)}: ${why}`, {
    ...(cause === undefined ? {} : { cause }),
  });
}
