import { canonicalJson, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { SealedHeader } from "./sealed-package.js";

/** What a chain entry records: a sealed package, an erasure of payloads, or a deletion by retention. */
export type ChainEntryKind = "PACKAGE" | "ERASURE" | "DELETION";

/** A payload as stored: encrypted under the package's own key, that key wrapped by the key ring. */
export interface EncryptedPayload {
  /** `<iv>.<ciphertext+tag>`, base64url, AES-256-GCM under the package's key. */
  readonly ciphertext: string;
  /** The package key wrapped by key-ring key `kid` (purpose `evidence.payload`); absent once erased. */
  readonly wrappedKey?: string | undefined;
  readonly kid: string;
}

/**
 * One link of an instance's evidence chain. `link` = SHA-256 of the canonical
 * `[previousLink, entryHash, sequence]`; the first entry's previous link is `genesisLinkOf(instanceId)`.
 */
export interface ChainEntry {
  /** The chain's name: the writing instance's id. */
  readonly instanceId: string;
  /** 1, 2, 3, ... without gaps. */
  readonly sequence: number;
  readonly kind: ChainEntryKind;
  readonly at: number;
  /** PACKAGE: the package hash; ERASURE and DELETION: `recordHashOf` the entry. */
  readonly entryHash: string;
  readonly link: string;
  /** PACKAGE: its one package id; ERASURE and DELETION: the packages they name. */
  readonly packageIds: readonly string[];
  /** PACKAGE, while kept: the sealed header (removed by retention, recorded by a DELETION entry). */
  readonly header?: SealedHeader | undefined;
  /** PACKAGE, while kept: the sealed payload. */
  readonly payload?: EncryptedPayload | undefined;
}

/** The previous link of a chain's first entry: it names the chain, so entries cannot move between chains. */
export function genesisLinkOf(instanceId: string): string {
  return sha256Hex(`keyward.evidence-chain/1:${instanceId}`);
}

/** A link: SHA-256 of the canonical `[previousLink, entryHash, sequence]`. */
export function linkOf(previousLink: string, entryHash: string, sequence: number): string {
  return sha256Hex(canonicalJson([previousLink, entryHash, sequence]));
}

/** The hash an ERASURE or DELETION entry is chained by: its kind, time and the packages it names. */
export function recordHashOf(kind: ChainEntryKind, at: number, packageIds: readonly string[]): string {
  return sha256Hex(canonicalJson({ kind, at, packageIds: [...packageIds] }));
}
