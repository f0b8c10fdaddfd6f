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
    return this.wrap(encryptPayloadBody(payload, packageId, packageHash), packageId);
  }

  /**
   * A payload encrypted elsewhere (`encryptPayloadBody`, e.g. on a shadow worker) wrapped with the
   * key ring's active key, which never leaves this thread; the data key is zeroed after.
   */
  async wrap(body: PayloadBody, packageId: string): Promise<EncryptedPayload> {
    const wrapping = await this.o.keys.active(PAYLOAD_KEY_PURPOSE, () => this.newKey());
    const dataKey = Buffer.from(body.dataKey.buffer, body.dataKey.byteOffset, body.dataKey.byteLength);
    try {
      return {
        ciphertext: body.ciphertext,
        wrappedKey: seal(Buffer.from(wrapping.secret), dataKey, `key:${packageId}`),
        kid: wrapping.kid,
      };
    } finally {
      dataKey.fill(0);
    }
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

/** A payload encrypted under a fresh data key of its own, the key not yet wrapped. */
export interface PayloadBody {
  readonly ciphertext: string;
  /** The 32-byte AES-256-GCM data key: kept in memory only, wrapped (then zeroed) by `PayloadCipher.wrap`. */
  readonly dataKey: Uint8Array;
}

/**
 * `payload` (its RFC 8785 form) under a fresh AES-256-GCM key, bound to the package id and hash: the
 * part of sealing that needs no key-ring key, so it can run off the serving thread.
 */
export function encryptPayloadBody(
  payload: SealedPayload,
  packageId: string,
  packageHash: string,
): PayloadBody {
  const dataKey = randomBytes(32);
  const text = Buffer.from(canonicalJson(payload as unknown as JsonValue), "utf8");
  const ciphertext = seal(dataKey, text, `payload:${packageId}:${packageHash}`);
  // A copy of its own (32 bytes, not a view on a shared pool), so posting it to a thread sends only the key.
  const own = new Uint8Array(dataKey);
  dataKey.fill(0);
  return { ciphertext, dataKey: own };
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
