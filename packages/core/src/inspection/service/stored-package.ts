import type { OpenedPackage } from "../../decisions/evidence/sealed-evidence-service.js";
import type { SealedHeader } from "../../decisions/evidence/sealed-package.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { dictionaryVersionOf } from "../inspect-package.js";
import type { InspectedPackage } from "../inspected-package.js";
import { type InspectedRelease, INSPECTOR_VERSION, type InspectionResult } from "../inspection-result.js";

/** A kept package read back as the inspector reads it: header fields in clear, payload texts, and its seal. */
export function inspectedPackageOf(opened: OpenedPackage): InspectedPackage | undefined {
  const { header, payload } = opened;
  if (payload === undefined) return undefined;
  return {
    id: header.id,
    eventId: header.eventId,
    ...(header.correlationId === null ? {} : { correlationId: header.correlationId }),
    at: header.at,
    prompts: payload.prompts,
    input: payload.input,
    metadata: header.metadata,
    seal: { header, packageHash: opened.packageHash },
  };
}

/** The release a header names, as a result keeps it (canary health counts by it). */
export function inspectedReleaseOf(header: SealedHeader): InspectedRelease | undefined {
  const r = header.metadata.release;
  if (r === undefined) return undefined;
  return {
    registryScope: r.registryScope,
    promptKey: r.promptKey,
    promptVersion: r.promptVersion,
    status: r.status,
    ...(r.approvedAt === undefined ? {} : { approvedAt: r.approvedAt }),
  };
}

/**
 * The ERROR result of a kept package whose payload cannot be read: PAYLOAD_ERASED (its key was
 * destroyed by an erasure) or PAYLOAD_UNREADABLE (the key ring can no longer open it).
 */
export function unreadableResult(
  opened: OpenedPackage,
  catalog: BundleCatalog,
  now: number,
): InspectionResult {
  const erased = !opened.unreadable;
  const release = inspectedReleaseOf(opened.header);
  return {
    packageId: opened.header.id,
    capturedAt: opened.header.at,
    inspectedAt: now,
    inspectorVersion: INSPECTOR_VERSION,
    dictionaryVersion: dictionaryVersionOf(catalog),
    verdict: "ERROR",
    checks: [],
    findings: [],
    error: erased
      ? { code: "PAYLOAD_ERASED", detail: "the package's payload was erased: its prompts are gone" }
      : { code: "PAYLOAD_UNREADABLE", detail: "the package's payload can no longer be opened" },
    ...(release ? { release } : {}),
  };
}
