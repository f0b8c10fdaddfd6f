import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";

/** A CBOR value this encoder writes: integers, text, bytes and maps (all WebAuthn needs here). */
export type CborValue = number | string | Uint8Array | Map<CborValue, CborValue>;

/** Encodes a CBOR data item (RFC 8949), definite lengths only. */
export function cbor(value: CborValue): Buffer {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error("CBOR: integers only");
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

function head(major: number, length: number): Buffer {
  const m = major << 5;
  if (length < 24) return Buffer.from([m | length]);
  if (length < 0x100) return Buffer.from([m | 24, length]);
  if (length < 0x10000) return Buffer.from([m | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = m | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

/** Authenticator data flags (WebAuthn §6.1). */
export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

/** One credential the software authenticator holds. */
export interface SoftwareCredential {
  id: Buffer;
  rpId: string;
  userHandle: Buffer;
  privateKey: KeyObject;
  /** COSE EC2 public key bytes. */
  cosePublicKey: Buffer;
  counter: number;
}

/** Ways to make a ceremony's output wrong (or unusual), for the attack tests. */
export interface CeremonyTweaks {
  /** `clientDataJSON.origin` (default the authenticator's origin). */
  origin?: string;
  /** The RP id whose hash goes into authenticator data (default the options' RP id). */
  rpId?: string;
  /** User verified flag (default true). */
  uv?: boolean;
  /** User present flag (default true). */
  up?: boolean;
  /** `clientDataJSON.type` (default `webauthn.create` / `webauthn.get`). */
  type?: string;
  /** `clientDataJSON.challenge` (default the options' challenge). */
  challenge?: string;
  /** Backup eligible and backed up flags (default false: a single-device credential). */
  backupEligible?: boolean;
  backedUp?: boolean;
}

/** Extra tweaks of an assertion. */
export interface AssertionTweaks extends CeremonyTweaks {
  /** Use this credential (base64url id) whatever the options allow. */
  credentialId?: string;
  /** Sign this counter instead of the next one (the stored counter is left alone). */
  counter?: number;
  /** `response.userHandle`: default the credential's; null leaves it out. */
  userHandle?: string | null;
  /** Flip a bit of the signature. */
  corruptSignature?: boolean;
}

/**
 * A software FIDO2 authenticator for tests: ES256 keys from node:crypto, `none` attestation with a
 * hand-encoded CBOR attestation object, discoverable credentials, a per-credential signature counter.
 * It produces exactly the JSON a browser's `PublicKeyCredential.toJSON()` gives the server.
 */
export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];
  private readonly aaguid: Buffer;

  constructor(
    private readonly origin: string,
    aaguid: Buffer = Buffer.alloc(16),
  ) {
    this.aaguid = aaguid;
  }

  /** `navigator.credentials.create()`: a new ES256 credential for the options' RP and user. */
  createCredential(
    options: PublicKeyCredentialCreationOptionsJSON,
    tweaks: CeremonyTweaks = {},
  ): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cosePublicKey = cbor(
      new Map<CborValue, CborValue>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
    const rpId = options.rp.id ?? "localhost";
    const credential: SoftwareCredential = {
      id: randomBytes(16),
      rpId,
      userHandle: Buffer.from(options.user.id, "base64url"),
      privateKey,
      cosePublicKey,
      counter: 0,
    };
    const attested = Buffer.alloc(18);
    this.aaguid.copy(attested, 0);
    attested.writeUInt16BE(credential.id.length, 16);
    const authData = Buffer.concat([
      authenticatorData(tweaks.rpId ?? rpId, flags(tweaks) | FLAGS.AT, 0),
      attested,
      credential.id,
      cosePublicKey,
    ]);
    const attestationObject = cbor(
      new Map<CborValue, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    const id = credential.id.toString("base64url");
    return {
      id,
      rawId: id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, tweaks),
        attestationObject: attestationObject.toString("base64url"),
        transports: ["internal", "hybrid"],
      },
    };
  }

  /** `navigator.credentials.get()`: signs the options' challenge with an allowed (or any) credential. */
  getAssertion(
    options: PublicKeyCredentialRequestOptionsJSON,
    tweaks: AssertionTweaks = {},
  ): AuthenticationResponseJSON {
    const credential = this.pick(options, tweaks.credentialId);
    const counter = tweaks.counter ?? ++credential.counter;
    const authData = authenticatorData(
      tweaks.rpId ?? options.rpId ?? credential.rpId,
      flags(tweaks),
      counter,
    );
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, tweaks);
    const clientDataHash = createHash("sha256").update(Buffer.from(clientDataJSON, "base64url")).digest();
    const signature = sign("sha256", Buffer.concat([authData, clientDataHash]), credential.privateKey);
    if (tweaks.corruptSignature) signature[signature.length - 1]! ^= 0x01;
    const id = credential.id.toString("base64url");
    const userHandle =
      tweaks.userHandle === null
        ? undefined
        : (tweaks.userHandle ?? credential.userHandle.toString("base64url"));
    return {
      id,
      rawId: id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON,
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        ...(userHandle === undefined ? {} : { userHandle }),
      },
    };
  }

  /** A second device holding copies of every credential with the same counters (a cloned authenticator). */
  clone(): SoftwareAuthenticator {
    const copy = new SoftwareAuthenticator(this.origin, this.aaguid);
    for (const c of this.credentials) copy.credentials.push({ ...c });
    return copy;
  }

  private pick(options: PublicKeyCredentialRequestOptionsJSON, credentialId?: string): SoftwareCredential {
    const wanted = credentialId ?? options.allowCredentials?.find((a) => this.find(a.id))?.id;
    const found =
      wanted === undefined ? this.credentials.find((c) => c.rpId === options.rpId) : this.find(wanted);
    if (!found) throw new Error("SoftwareAuthenticator: no matching credential");
    return found;
  }

  private find(id: string): SoftwareCredential | undefined {
    return this.credentials.find((c) => c.id.toString("base64url") === id);
  }

  private clientData(type: string, challenge: string, tweaks: CeremonyTweaks): string {
    return Buffer.from(
      JSON.stringify({
        type: tweaks.type ?? type,
        challenge: tweaks.challenge ?? challenge,
        origin: tweaks.origin ?? this.origin,
        crossOrigin: false,
      }),
    ).toString("base64url");
  }
}

function flags(tweaks: CeremonyTweaks): number {
  return (
    (tweaks.up === false ? 0 : FLAGS.UP) |
    (tweaks.uv === false ? 0 : FLAGS.UV) |
    (tweaks.backupEligible ? FLAGS.BE : 0) |
    (tweaks.backedUp ? FLAGS.BS : 0)
  );
}

function authenticatorData(rpId: string, flagBits: number, counter: number): Buffer {
  const out = Buffer.alloc(37);
  createHash("sha256").update(rpId).digest().copy(out, 0);
  out[32] = flagBits;
  out.writeUInt32BE(counter, 33);
  return out;
}
