import { z } from "zod";
import { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";
import { evidenceLine, sha256Field } from "./evidence-text.js";

/** Most resource families one SHADOW_COMPARISON record lists (more fold into OTHER_FAMILY). */
export const MAX_COMPARISON_FAMILIES = 64;
/** Most reason codes one family lists as added or as dropped (more fold into OTHER_REASON). */
export const MAX_DRIFT_CODES = 32;
/** Most enforced bundles one record lists (more fold into the last one listed). */
export const MAX_ENFORCED_BUNDLES = 8;
/** The family name that holds the families past MAX_COMPARISON_FAMILIES. */
export const OTHER_FAMILY = "(other families)";
/** The code that counts the reason codes past MAX_DRIFT_CODES. */
export const OTHER_REASON = "(other reasons)";

const runs = z.number().int().min(0).max(1_000_000_000);
const action = z.enum(DECISION_ACTIONS);
const codeCounts = z
  .array(z.strictObject({ code: evidenceLine(64), runs: runs.min(1) }))
  .max(MAX_DRIFT_CODES + 1);

/** One resource family's part of a batch: action agreement and reason-code drift. */
const familySchema = z
  .strictObject({
    family: evidenceLine(128),
    runs: runs.min(1),
    agreed: runs,
    /** Runs whose shadow reason codes were not the enforced decision's (as sets). */
    reasonDrift: runs,
    /** Codes the shadow gave that the enforced decision did not, with the runs they appeared in. */
    added: codeCounts,
    /** Codes the enforced decision gave that the shadow did not. */
    dropped: codeCounts,
  })
  .refine((f) => f.agreed <= f.runs && f.reasonDrift <= f.runs, "agreed and reasonDrift are at most runs");

/**
 * SHADOW_COMPARISON: one batch of shadow runs of a SHADOW release (the record's prompt key, version
 * and bundle hash) compared with the decisions enforced on the same inputs, recorded by the shadow
 * runner (`system:shadow`) only. Batches are disjoint (each run is counted in one record of one
 * instance), so the gate sums them.
 */
export const shadowComparisonSchema = z
  .strictObject({
    /** The instance whose runs these are (`platform.instance.id`). */
    instanceId: evidenceLine(128),
    /** When the batch's first and last runs ended (epoch milliseconds). */
    firstRunAt: z.number().int().min(0),
    lastRunAt: z.number().int().min(0),
    runs: runs.min(1),
    /** Runs whose shadow answer took the enforced action (a shadow fallback never agrees). */
    agreed: runs,
    /** Runs whose shadow outcome was a recorded fallback (no accepted answer): not in actions or families. */
    fellBack: runs,
    /** Runs by (enforced action, shadow action). */
    actions: z
      .array(z.strictObject({ enforced: action, shadow: action, runs: runs.min(1) }))
      .max(DECISION_ACTIONS.length ** 2),
    /** The bundles the compared decisions were enforced with. */
    enforced: z
      .array(z.strictObject({ bundleVersion: evidenceLine(64), bundleHash: sha256Field, runs: runs.min(1) }))
      .min(1)
      .max(MAX_ENFORCED_BUNDLES),
    families: z.array(familySchema).max(MAX_COMPARISON_FAMILIES + 1),
  })
  .refine((c) => c.agreed <= c.runs && c.firstRunAt <= c.lastRunAt, "agreed ≤ runs, firstRunAt ≤ lastRunAt")
  .refine(
    (c) =>
      sum(c.actions) + c.fellBack === c.runs &&
      sum(c.families) + c.fellBack === c.runs &&
      sum(c.enforced) === c.runs,
    { message: "actions and families add up to runs less fellBack; enforced bundles to runs" },
  )
  .refine(
    (c) =>
      c.actions.reduce((n, a) => n + (a.enforced === a.shadow ? a.runs : 0), 0) === c.agreed &&
      c.families.reduce((n, f) => n + f.agreed, 0) === c.agreed,
    { message: "agreed is the runs with equal actions, in actions and in families" },
  );

/** SHADOW_COMPARISON content. */
export type ShadowComparisonContent = z.output<typeof shadowComparisonSchema>;

function sum(parts: readonly { readonly runs: number }[]): number {
  return parts.reduce((n, p) => n + p.runs, 0);
}
