import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { SealVerification, SealVerifier } from "../checks/seal-integrity.js";
import type { InspectedPackage } from "../inspected-package.js";

/** A corpus package's seal: the hash of every field but the prompts, and each prompt part's hash. */
interface CorpusSeal {
  readonly packageHash: string;
  readonly prompts: readonly { readonly system: string; readonly user: string }[];
}

const sealOf = (pkg: InspectedPackage): CorpusSeal => ({
  packageHash: sha256Hex(canonicalJson({ ...pkg, prompts: null } as unknown as JsonValue)),
  prompts: pkg.prompts.map((p) => ({ system: sha256Hex(p.system), user: sha256Hex(p.user) })),
});

/**
 * The corpus's stand-in for the sealed-evidence module's seal (RFC 8785 + SHA-256, one hash per
 * prompt part): `seal(pkg)` records a package as captured, `verify` recomputes and compares. The
 * lead swaps in the sealed-evidence module's `verifyPackageSeal` once both land (see the report).
 */
export class CorpusSeals {
  private readonly seals = new Map<string, CorpusSeal>();

  /** Seals `pkg` as captured (a later seal of the same id replaces it: a package made so before sealing). */
  seal(pkg: InspectedPackage): InspectedPackage {
    this.seals.set(pkg.id, sealOf(pkg));
    return pkg;
  }

  /** The SealVerifier over the recorded seals. */
  readonly verify: SealVerifier = (pkg): SealVerification => {
    const kept = this.seals.get(pkg.id);
    if (kept === undefined) return { state: "NOT_SEALED" };
    const now = sealOf(pkg);
    for (const [i, p] of now.prompts.entries())
      for (const part of ["system", "user"] as const)
        if (p[part] !== kept.prompts[i]?.[part])
          return {
            state: "BROKEN",
            reason: "PROMPT_HASH_DIFFERS",
            detail: `the ${pkg.prompts[i]!.layer} ${part} prompt differs from its sealed hash`,
            prompt: i,
            part,
          };
    if (now.packageHash !== kept.packageHash || now.prompts.length !== kept.prompts.length)
      return {
        state: "BROKEN",
        reason: "PACKAGE_HASH_DIFFERS",
        detail: "the package differs from its sealed hash",
      };
    return { state: "INTACT" };
  };
}
