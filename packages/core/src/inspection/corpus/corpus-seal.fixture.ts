import { sealPackage } from "../../decisions/evidence/sealed-package.js";
import type { InspectedPackage } from "../inspected-package.js";

/**
 * Seals `pkg` as the sealed-evidence module does (into chain `instanceId`) and answers it with its
 * seal, the way the inspection service reads a stored package: for the corpus, the tests and the
 * bench, whose packages never went through a store. A package changed after this call is tampered
 * with; one changed before it was sealed so (a render or writer bug).
 */
export function withSeal(pkg: InspectedPackage, instanceId = "corpus"): InspectedPackage {
  const { seal: _seal, ...plain } = pkg;
  const sealed = sealPackage(plain, instanceId);
  return { ...pkg, seal: { header: sealed.header, packageHash: sealed.packageHash } };
}
