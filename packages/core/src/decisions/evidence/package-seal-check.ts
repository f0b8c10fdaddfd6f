import { sha256Hex } from "../../prompts/hashing/canonical-json.js";
import { inputHashOf, packageHashOf, SEALED_PACKAGE_FORMAT, type SealedPackage } from "./sealed-package.js";

/** Why a package's seal does not hold (null when it holds). */
export type SealBreak =
  | "FORMAT_UNKNOWN"
  | "PACKAGE_HASH_MISMATCH"
  | "PROMPT_COUNT_MISMATCH"
  | "PROMPT_HASH_MISMATCH"
  | "CONTEXT_HASH_MISMATCH";

/** The answer of `verifyPackageSeal`. */
export interface PackageSealCheck {
  readonly intact: boolean;
  /** The first break found; null when intact. */
  readonly reason: SealBreak | null;
  /** Which prompt (index, `system` or `user`) differs from its hash, for PROMPT_HASH_MISMATCH. */
  readonly detail: string | null;
  /** False when the payload was erased: only the header's hash could be checked. */
  readonly payloadChecked: boolean;
}

/**
 * Recomputes a package's seal: the package hash over its header (RFC 8785 + SHA-256), and, while the
 * payload is there, each prompt text against its hash and the context against its hash. Pure: the
 * inspector's SEAL_INTEGRITY check and the chain verifier call it.
 */
export function verifyPackageSeal(pkg: SealedPackage): PackageSealCheck {
  const { header, payload } = pkg;
  const payloadChecked = payload !== undefined;
  const broken = (reason: SealBreak, detail: string | null = null): PackageSealCheck => ({
    intact: false,
    reason,
    detail,
    payloadChecked,
  });
  if (header.format !== SEALED_PACKAGE_FORMAT) return broken("FORMAT_UNKNOWN");
  if (packageHashOf(header) !== pkg.packageHash) return broken("PACKAGE_HASH_MISMATCH");
  if (payload !== undefined) {
    if (payload.prompts.length !== header.prompts.length) return broken("PROMPT_COUNT_MISMATCH");
    for (const [i, sent] of payload.prompts.entries()) {
      const hashes = header.prompts[i]!;
      if (sent.layer !== hashes.layer) return broken("PROMPT_HASH_MISMATCH", `${i}.layer`);
      if (sha256Hex(sent.system) !== hashes.systemSha256)
        return broken("PROMPT_HASH_MISMATCH", `${i}.system`);
      if (sha256Hex(sent.user) !== hashes.userSha256) return broken("PROMPT_HASH_MISMATCH", `${i}.user`);
    }
    if (inputHashOf(payload.input) !== header.inputSha256) return broken("CONTEXT_HASH_MISMATCH");
  }
  return { intact: true, reason: null, detail: null, payloadChecked };
}
