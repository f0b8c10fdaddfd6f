import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  sign,
  verify,
} from "node:crypto";
import type { KeyRing, NewKey } from "../../kernel/keys/key-ring.js";
import { canonicalJson } from "../../prompts/hashing/canonical-json.js";

/** The key-ring purpose of the keys that sign checkpoints. */
export const CHECKPOINT_KEY_PURPOSE = "evidence.checkpoint";
/** Checkpoints are signed with Ed25519 (RFC 8032). */
export const CHECKPOINT_ALGORITHM = "Ed25519";

/** A signed statement that chain `instanceId` had `link` at `sequence`. */
export interface EvidenceCheckpoint {
  readonly instanceId: string;
  readonly sequence: number;
  readonly link: string;
  readonly at: number;
  /** The key-ring key (purpose `evidence.checkpoint`) that signed it. */
  readonly kid: string;
  /** Ed25519 signature over `checkpointSigningInput`, base64url. */
  readonly signature: string;
}

/** A checkpoint key's public half, what a verifier needs. */
export interface CheckpointPublicKey {
  readonly kid: string;
  readonly publicJwk: Readonly<Record<string, unknown>>;
}

/** The bytes a checkpoint's signature covers: the canonical JSON of its fields but the signature. */
export function checkpointSigningInput(cp: Omit<EvidenceCheckpoint, "signature">): Buffer {
  const fields = {
    format: "keyward.evidence-checkpoint/1",
    instanceId: cp.instanceId,
    sequence: cp.sequence,
    link: cp.link,
    at: cp.at,
    kid: cp.kid,
  };
  return Buffer.from(canonicalJson(fields), "utf8");
}

/** True when `cp`'s signature holds under the public key its kid names among `keys`. */
export function checkpointSignatureHolds(
  cp: EvidenceCheckpoint,
  keys: readonly CheckpointPublicKey[],
): boolean {
  const key = keys.find((k) => k.kid === cp.kid);
  if (key === undefined) return false;
  try {
    const publicKey = createPublicKey({ key: key.publicJwk as JsonWebKey, format: "jwk" });
    return verify(null, checkpointSigningInput(cp), publicKey, Buffer.from(cp.signature, "base64url"));
  } catch {
    return false;
  }
}

/**
 * Signs checkpoints with the key ring's active `evidence.checkpoint` key (made on first use, one
 * winner across instances); lists the public halves of the active and retired keys for verifiers.
 */
export class CheckpointSigner {
  constructor(private readonly o: { keys: KeyRing; newKid: () => string }) {}

  /** `fields` signed by the active key. */
  async sign(fields: Omit<EvidenceCheckpoint, "signature" | "kid">): Promise<EvidenceCheckpoint> {
    const key = await this.o.keys.active(CHECKPOINT_KEY_PURPOSE, () => this.newKey());
    const unsigned = { ...fields, kid: key.kid };
    const privateKey = createPrivateKey({ key: Buffer.from(key.secret), format: "der", type: "pkcs8" });
    const signature = sign(null, checkpointSigningInput(unsigned), privateKey).toString("base64url");
    return { ...unsigned, signature };
  }

  /** The public keys checkpoints may name (the active one first, then those kept for verification). */
  async publicKeys(): Promise<CheckpointPublicKey[]> {
    return (await this.o.keys.keys(CHECKPOINT_KEY_PURPOSE))
      .filter((k) => k.publicJwk !== undefined)
      .map((k) => ({ kid: k.kid, publicJwk: k.publicJwk! }));
  }

  private newKey(): NewKey {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const der = privateKey.export({ format: "der", type: "pkcs8" });
    return {
      kid: this.o.newKid(),
      algorithm: CHECKPOINT_ALGORITHM,
      secret: new Uint8Array(der),
      publicJwk: publicKey.export({ format: "jwk" }) as Record<string, unknown>,
    };
  }
}
