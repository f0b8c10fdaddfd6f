import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { KeyRing } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";

/** The KeyStore purpose of the key that seals e-mail change links. */
export const EMAIL_CHANGE_KEY_PURPOSE = "mfa.email-change";
/** How long a confirmation link works. */
export const EMAIL_CHANGE_LINK_TTL_MS = 30 * 60_000;

const FORMAT = "e1";
const AAD = Buffer.from("email-change", "utf8");
/** Longest link value looked at. */
export const MAX_EMAIL_CHANGE_LINK_LENGTH = 1024;

/** What a confirmation link carries, sealed: whose address, the new one, the one it replaces, until when. */
export interface EmailChange {
  readonly userId: string;
  readonly newEmail: string;
  /** The address when the change was asked for (null: none); the link works only while it still is. */
  readonly oldEmail: string | null;
  /** The account's version when the change was asked; any later update of the account voids the link. */
  readonly accountVersion: number;
  readonly expiresAt: number;
}

/**
 * Seals e-mail change requests into their confirmation links (AES-256-GCM, a KeyRing key shared by
 * every instance): nothing is stored until the link is used, nobody can forge or alter a link, and a
 * link works once: it applies only while the account is unchanged since the change was asked (its
 * version), which its own use changes. Form: `e1.<iv>.<ciphertext+tag>`.
 */
export class EmailChangeLinks {
  private key: Buffer | undefined;

  /** Reads (or makes) the sealing key; called at start. */
  async start(ring: KeyRing): Promise<void> {
    const kept = await ring.active(EMAIL_CHANGE_KEY_PURPOSE, () => ({
      kid: randomBytes(12).toString("base64url"),
      algorithm: "A256GCM",
      secret: new Uint8Array(randomBytes(32)),
    }));
    this.key = Buffer.from(kept.secret);
  }

  /** `change` sealed into a link value. */
  seal(change: EmailChange): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.started(), iv);
    cipher.setAAD(AAD);
    const plain = Buffer.from(JSON.stringify(change), "utf8");
    const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}.${iv.toString("base64url")}.${body.toString("base64url")}`;
  }

  /** The change a link value carries, unless it is malformed, forged, altered or expired at `now`. */
  open(value: unknown, now: number): EmailChange | undefined {
    if (typeof value !== "string" || value.length > MAX_EMAIL_CHANGE_LINK_LENGTH) return undefined;
    const [format, iv, body, ...rest] = value.split(".");
    if (format !== FORMAT || !iv || !body || rest.length > 0) return undefined;
    try {
      const bytes = Buffer.from(body, "base64url");
      if (bytes.length <= 16) return undefined;
      const decipher = createDecipheriv("aes-256-gcm", this.started(), Buffer.from(iv, "base64url"));
      decipher.setAAD(AAD);
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
      const change = JSON.parse(plain.toString("utf8")) as EmailChange;
      return change.expiresAt > now ? change : undefined;
    } catch {
      return undefined;
    }
  }

  private started(): Buffer {
    if (!this.key)
      throw new PlatformError(
        "DEPENDENCY_MISSING",
        "E-mail change links are used before the platform started",
      );
    return this.key;
  }
}
