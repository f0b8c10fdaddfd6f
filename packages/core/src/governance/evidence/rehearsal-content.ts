import { z } from "zod";
import { evidenceLine, evidenceText, sha256Field } from "./evidence-text.js";

/** Most findings a REHEARSAL record quotes (the first ones, in the order the packages were read). */
export const MAX_REHEARSAL_FINDINGS = 20;
/** Most (check, kind, reason) rows a REHEARSAL record counts (more fold into the last row's count). */
export const MAX_REHEARSAL_REASONS = 64;
/** Most sealed packages one rehearsal re-renders. */
export const MAX_REHEARSAL_PACKAGES = 1_000;

const count = z.number().int().min(0).max(1_000_000_000);
const instant = z.number().int().min(0);
const verdicts = z.strictObject({
  PASS: count,
  FAIL: count,
  INCOMPLETE: count,
  NOT_APPLICABLE: count,
  ERROR: count,
});
const findingKind = z.enum(["MISMATCH", "UNVERIFIABLE"]);

/** One check over the rehearsed packages: how many ended in each status. */
const checkCounts = z.strictObject({
  check: evidenceLine(64),
  pass: count,
  mismatch: count,
  unverifiable: count,
  notApplicable: count,
});

/** One of the first findings, with the rendered prompt line it stands on. */
const quotedFinding = z.strictObject({
  packageId: evidenceLine(128),
  check: evidenceLine(64),
  kind: findingKind,
  reason: evidenceLine(64),
  detail: evidenceText(1_000),
  layer: z.enum(["L1", "L2"]).nullable(),
  /** 1-based line of the candidate's user prompt; null when the finding concerns the whole part. */
  line: z.number().int().min(1).max(100_000).nullable(),
  /** That line as the candidate rendered it (cut at 300 characters); null without a line. */
  text: z.string().max(300).nullable(),
});

/**
 * REHEARSAL: a counterfactual re-render (`platform bundles rehearse`). The sealed contexts of
 * enforced decisions of a capture period, rendered again by the candidate bundle (the record's
 * prompt key, version and bundle hash) and held to the inspector's layout checks; no model was
 * called. Recorded by the server that ran it, under the administrator who asked (never submitted:
 * the intake refuses the kind). It is listed with the release's evidence; the gate does not count it
 * (docs/decisions/prompts.md
 * `rehearsal-informs-the-gate`).
 */
export const rehearsalSchema = z
  .strictObject({
    inspectorVersion: evidenceLine(64),
    dictionaryVersion: evidenceLine(64),
    candidate: z.strictObject({
      promptVersion: evidenceLine(64),
      bundleHash: sha256Field,
      layout: evidenceLine(64),
    }),
    /** The capture period read: `from` inclusive, `to` exclusive (epoch milliseconds). */
    period: z.strictObject({ from: instant, to: instant }),
    /** The checks run on every render (the others need a seal, a registry, a host or a model answer). */
    checks: z.array(checkCounts).min(1).max(10),
    /** Packages re-rendered and checked. */
    packages: count,
    /** True when the period held more packages than the rehearsal's limit. */
    truncated: z.boolean(),
    /** Packages of the period not rehearsed: shadow runs, erased payloads, unreadable payloads. */
    skipped: z.strictObject({ shadow: count, erased: count, unreadable: count }),
    verdicts,
    /** Renders over their budget profile, and the sections the renders cut to fit. */
    overBudget: count,
    omitted: z.array(z.strictObject({ section: evidenceLine(128), renders: count.min(1) })).max(64),
    /** Findings by check, kind and reason, most frequent first. */
    reasons: z
      .array(
        z.strictObject({
          check: evidenceLine(64),
          kind: findingKind,
          reason: evidenceLine(64),
          findings: count.min(1),
        }),
      )
      .max(MAX_REHEARSAL_REASONS),
    findings: z.array(quotedFinding).max(MAX_REHEARSAL_FINDINGS),
  })
  .refine((c) => c.period.from <= c.period.to, "period.from is at most period.to")
  .refine(
    (c) =>
      c.verdicts.PASS +
        c.verdicts.FAIL +
        c.verdicts.INCOMPLETE +
        c.verdicts.NOT_APPLICABLE +
        c.verdicts.ERROR ===
      c.packages,
    "the verdicts add up to packages",
  );

/** REHEARSAL content. */
export type RehearsalContent = z.output<typeof rehearsalSchema>;
