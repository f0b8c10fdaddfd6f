import type { SecurityDecisionJson, SecurityDecisionSummaryJson } from "../../web/wire/decision-messages.js";
import type { DecisionRecord } from "../evidence/evidence-package.js";
import type { DecisionEvidence } from "../evidence/sealed-evidence-service.js";

/** The list's view of a decision record: the decision without its prompts and context. */
export function decisionSummaryOf(pkg: DecisionRecord): SecurityDecisionSummaryJson {
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

/** One decision in full: the summary, its seal, and the prompts and context as sent when they are kept. */
export function decisionDetailOf(evidence: DecisionEvidence): SecurityDecisionJson {
  const { record, seal, payload } = evidence;
  return {
    ...decisionSummaryOf(record),
    sealed: seal !== null,
    seal:
      seal === null
        ? null
        : {
            packageHash: seal.packageHash,
            instanceId: seal.instanceId,
            sequence: seal.sequence,
            link: seal.link,
            checkpoint: seal.checkpoint,
            intact: seal.intact,
            reason: seal.reason,
            erased: seal.erased,
          },
    prompts:
      payload === null
        ? []
        : payload.prompts.map((p) => ({ layer: p.layer, system: p.system, user: p.user })),
    input: payload === null ? null : (payload.input as unknown as Readonly<Record<string, unknown>>),
  };
}
