import { verifyPackageSeal } from "../../decisions/evidence/package-seal-check.js";
import type { SealedPackage } from "../../decisions/evidence/sealed-package.js";
import type { InspectedPackage } from "../inspected-package.js";
import type { SealVerification, SealVerifier } from "./seal-integrity.js";

const broken = (reason: string, detail: string, at?: { prompt: number; part: "system" | "user" }) =>
  ({ state: "BROKEN", reason, detail, ...at }) as const;

/** The fields the inspector reads in clear, against the sealed header (a difference is tampering). */
function clearFieldDiffers(pkg: InspectedPackage): string | undefined {
  const h = pkg.seal!.header;
  if (h.id !== pkg.id) return "id";
  if (h.eventId !== pkg.eventId) return "eventId";
  if (h.correlationId !== (pkg.correlationId ?? null)) return "correlationId";
  if (h.at !== pkg.at) return "at";
  return sameJson(h.metadata, pkg.metadata) ? undefined : "metadata";
}

/**
 * True when `a` and `b` are the same as JSON (what RFC 8785 canonical forms compare): keys in any
 * order, a key whose value is undefined the same as no key. A walk, not two canonical texts: this
 * runs for every inspected package, and canonicalizing the metadata twice cost a tenth of the bench.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return typeof a === "number" && typeof b === "number" ? Object.is(a, b) || a === b : false;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameJson(v ?? null, other[i] ?? null));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = (r: Record<string, unknown>) => Object.keys(r).filter((k) => r[k] !== undefined);
  const ka = keys(ra);
  if (ka.length !== keys(rb).length) return false;
  return ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/**
 * The inspector's SealVerifier over the sealed-evidence module's `verifyPackageSeal`: the package
 * hash over the sealed header, each prompt and the context against the header's hashes, and the
 * clear fields the checks read against the header. Reasons in the inspector's words:
 * PACKAGE_HASH_DIFFERS, PROMPT_HASH_DIFFERS (with the prompt and part), PROMPT_COUNT_DIFFERS,
 * CONTEXT_HASH_DIFFERS, FORMAT_UNKNOWN, FIELD_DIFFERS.
 */
export const verifySealedPackage: SealVerifier = (pkg): SealVerification => {
  if (pkg.seal === undefined) return { state: "NOT_SEALED" };
  const sealed: SealedPackage = {
    header: pkg.seal.header,
    packageHash: pkg.seal.packageHash,
    payload: { prompts: pkg.prompts, input: pkg.input },
  };
  const check = verifyPackageSeal(sealed);
  if (!check.intact) {
    if (check.reason === "PROMPT_HASH_MISMATCH") {
      const [index, part] = (check.detail ?? "0.user").split(".");
      const prompt = Number(index);
      const layer = pkg.prompts[prompt]?.layer ?? "?";
      const which = part === "system" ? "system" : "user";
      return broken("PROMPT_HASH_DIFFERS", `the ${layer} ${which} prompt differs from its sealed hash`, {
        prompt,
        part: which,
      });
    }
    const reason = (check.reason ?? "PACKAGE_HASH_MISMATCH").replace(/_MISMATCH$/, "_DIFFERS");
    return broken(reason, `the package's seal does not hold (${reason})`);
  }
  const field = clearFieldDiffers(pkg);
  return field === undefined
    ? { state: "INTACT" }
    : broken("FIELD_DIFFERS", `the package's ${field} differs from its sealed header`);
};
