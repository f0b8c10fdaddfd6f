import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { EvidenceMetadata, EvidencePackage } from "./evidence-package.js";

/** The format every sealed header names; a new field list is a new format. */
export const SEALED_PACKAGE_FORMAT = "keyward.sealed-evidence/1";

/** One prompt's hashes: SHA-256 (lower-case hex) of the UTF-8 bytes of the texts exactly as sent. */
export interface SealedPromptHashes {
  readonly layer: "L1" | "L2";
  readonly systemSha256: string;
  readonly userSha256: string;
}

/**
 * The sealed fields kept in clear (the header): everything a package says except the prompt texts
 * and the context, which it covers by their hashes. The package hash is computed over these fields,
 * so it survives the erasure of the payload (docs/sealed-evidence.md lists them).
 */
export interface SealedHeader {
  readonly format: typeof SEALED_PACKAGE_FORMAT;
  /** The package's id (the decision's id). */
  readonly id: string;
  /** The request for the decision: its event id. */
  readonly eventId: string;
  /** The correlation id of the HTTP request behind the event; null when there was none. */
  readonly correlationId: string | null;
  /** The chain the package is sealed into (the instance's id). */
  readonly instanceId: string;
  /** When it was captured, epoch milliseconds. */
  readonly at: number;
  readonly prompts: readonly SealedPromptHashes[];
  /** SHA-256 of the RFC 8785 canonical form of the context as sent. */
  readonly inputSha256: string;
  readonly metadata: EvidenceMetadata;
}

/** The payload a package seals under a key of its own: the prompts as sent and the context. */
export interface SealedPayload {
  readonly prompts: readonly {
    readonly layer: "L1" | "L2";
    readonly system: string;
    readonly user: string;
  }[];
  readonly input: PromptInput;
}

/** A sealed package, opened: its header, its hash, and its payload unless it was erased. */
export interface SealedPackage {
  readonly header: SealedHeader;
  /** SHA-256 of the RFC 8785 canonical header. */
  readonly packageHash: string;
  /** Absent once erased (its key destroyed). */
  readonly payload?: SealedPayload | undefined;
}

/** SHA-256 (hex) of a header's canonical form: the package hash. */
export function packageHashOf(header: SealedHeader): string {
  return sha256Hex(canonicalJson(header as unknown as JsonValue));
}

/** SHA-256 (hex) of the canonical form of a context. */
export function inputHashOf(input: PromptInput): string {
  return sha256Hex(canonicalJson(jsonOf(input)));
}

/**
 * Seals `pkg` into chain `instanceId`: hashes each prompt and the context, builds the header
 * (undefined fields dropped, so the stored form and the hashed form are one) and hashes it.
 */
export function sealPackage(pkg: EvidencePackage, instanceId: string): SealedPackage {
  const payload: SealedPayload = {
    prompts: pkg.prompts.map((p) => ({ layer: p.layer, system: p.system, user: p.user })),
    input: jsonOf(pkg.input) as unknown as PromptInput,
  };
  const header = jsonOf({
    format: SEALED_PACKAGE_FORMAT,
    id: pkg.id,
    eventId: pkg.eventId,
    correlationId: pkg.correlationId ?? null,
    instanceId,
    at: pkg.at,
    prompts: payload.prompts.map((p) => ({
      layer: p.layer,
      systemSha256: sha256Hex(p.system),
      userSha256: sha256Hex(p.user),
    })),
    inputSha256: inputHashOf(payload.input),
    metadata: pkg.metadata,
  }) as unknown as SealedHeader;
  return { header, packageHash: packageHashOf(header), payload };
}

/** `value` as JSON keeps it: undefined members dropped, a deep copy. */
export function jsonOf(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
