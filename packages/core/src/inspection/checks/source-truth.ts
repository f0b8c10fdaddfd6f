import type { Dictionary } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CheckFindings } from "../check-findings.js";
import type { InspectionContext } from "../inspection-context.js";
import type { CheckOutcome } from "../inspection-result.js";
import type {
  FactClaim,
  FactSourceAnswer,
  PromptFactSourceVerifier,
} from "../prompt-fact-source-verifier.js";
import { drawnLines, sourcePaths } from "./drawn-lines.js";
import { isRedacted } from "./fact-accuracy.js";

/**
 * SOURCE_TRUTH: the deciding prompt's facts against the host's own records, through its
 * PromptFactSourceVerifier. CONTRADICTED is a MISMATCH; NO_RECORD, a masked fact (REDACTED) and a
 * verifier that failed (SOURCE_UNAVAILABLE) are UNVERIFIABLE; claims the host leaves unanswered
 * are not compared. Without a verifier the check is NOT_INTEGRATED and the verdict does not count it.
 */
export async function sourceTruth(
  ctx: InspectionContext,
  dictionary: Dictionary,
  verifier: PromptFactSourceVerifier | undefined,
): Promise<{ findings: CheckFindings; outcome: CheckOutcome }> {
  const out = new CheckFindings("SOURCE_TRUTH");
  if (verifier === undefined) return { findings: out, outcome: out.outcome("NOT_INTEGRATED") };
  const view = ctx.prompts.findLast((p) => p.prompt.layer === ctx.pkg.metadata.layer) ?? ctx.prompts.at(-1);
  if (view === undefined) return { findings: out, outcome: out.outcome() };
  const masked = ctx.redacted;
  const anyRecordMasked = [...masked].some((p) => p.startsWith("pastRecords."));
  const claims: (FactClaim & { line: number })[] = [];
  for (const d of drawnLines(view, dictionary)) {
    const at = { location: view.at(d.line.line), key: d.key, factId: d.line.factId };
    if (d.entry ? isRedacted(masked, sourcePaths(d.entry.source)) : anyRecordMasked) {
      out.count();
      out.unverifiable(
        "REDACTED",
        `${d.key} was masked before the model saw it: the host cannot be asked about it`,
        at,
      );
    } else claims.push({ factId: d.line.factId!, key: d.key, value: d.line.value!, line: d.line.line });
  }
  let answers: readonly FactSourceAnswer[];
  try {
    answers = await verifier.verify({
      packageId: ctx.pkg.id,
      capturedAt: ctx.pkg.at,
      userId: ctx.pkg.metadata.userId,
      claims: claims.map(({ factId, key, value }) => ({ factId, key, value })),
    });
  } catch {
    out.unverifiable("SOURCE_UNAVAILABLE", "the host's fact source verifier failed");
    return { findings: out, outcome: out.outcome() };
  }
  for (const answer of answers) {
    const claim = claims.find((c) => c.factId === answer.factId);
    if (claim === undefined) continue;
    out.count();
    const at = { location: view.at(claim.line), key: claim.key, factId: claim.factId };
    const said = answer.detail ? `: ${answer.detail}` : "";
    if (answer.outcome === "CONTRADICTED")
      out.mismatch(
        "HOST_RECORD_DIFFERS",
        `the host's records contradict ${claim.key} "${claim.value}"${said}`,
        at,
      );
    if (answer.outcome === "NO_RECORD")
      out.unverifiable("NO_HOST_RECORD", `the host holds no record to check ${claim.key} against${said}`, at);
  }
  return { findings: out, outcome: out.outcome() };
}
