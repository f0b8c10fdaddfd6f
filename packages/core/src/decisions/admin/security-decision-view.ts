import type { SecurityDecisionJson, SecurityDecisionSummaryJson } from "../../web/wire/decision-messages.js";
import type { EvidencePackage } from "../evidence/sealed-evidence-store.js";

/** The list's view of an evidence package: the decision without its prompts and context. */
export function decisionSummaryOf(pkg: EvidencePackage): SecurityDecisionSummaryJson {
  const m = pkg.metadata;
  return {
    id: pkg.id,
    at: pkg.at,
    eventId: pkg.eventId,
    eventKind: m.eventKind,
    userId: m.userId,
    action: m.action as SecurityDecisionSummaryJson["action"],
    decidedAction: m.decidedAction ?? null,
    riskScore: m.riskScore,
    confidence: m.confidence,
    layer: m.layer,
    bundleVersion: m.bundleVersion,
    bundleHash: m.bundleHash,
    selectionSource: m.selectionSource,
    stage: m.stage ?? "ENFORCE",
    release: m.release
      ? {
          registryScope: m.release.registryScope,
          promptKey: m.release.promptKey,
          promptVersion: m.release.promptVersion,
          status: m.release.status,
          contractVersion: m.release.contractVersion,
          approvedAt: m.release.approvedAt ?? null,
          approvedBy: m.release.approvedBy ?? null,
        }
      : null,
    model: { id: m.model.id, external: m.model.external },
    timings: m.timings,
    floorApplied: m.floorApplied ?? null,
    fallback: m.fallback ?? null,
    redacted: m.redacted,
  };
}

/** One decision in full: the summary, the prompts exactly as sent and the context as sent. */
export function decisionDetailOf(pkg: EvidencePackage): SecurityDecisionJson {
  return {
    ...decisionSummaryOf(pkg),
    prompts: pkg.prompts.map((p) => ({ layer: p.layer, system: p.system, user: p.user })),
    input: pkg.input as unknown as Readonly<Record<string, unknown>>,
  };
}
