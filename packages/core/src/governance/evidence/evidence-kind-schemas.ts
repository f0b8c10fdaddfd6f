import { z } from "zod";
import { evaluationRunSchema } from "../evaluation/evaluation-run-record.js";
import { evidenceLine, evidenceText } from "./evidence-text.js";
import { rehearsalSchema } from "./rehearsal-content.js";
import { shadowComparisonSchema } from "./shadow-comparison-content.js";
import type { EvidenceKind } from "./release-evidence-ledger.js";

/** A declared model profile: `<provider>:<model>@<budget profile>` (`openai:gpt-4o-mini@L1-standard`). */
export const MODEL_PROFILE = /^[a-z0-9][a-z0-9-]{0,31}:[^\s@]{1,128}@[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** A ticket id: a letter or digit, then letters, digits, `-`, `_`, `#`, `/` or `.` (`SEC-1234`, `platform/api#42`). */
export const TICKET_ID = /^[A-Za-z0-9][A-Za-z0-9_#/.-]*$/;

/** An absolute http(s) URL without credentials or white space: a link a reviewer can open, never a script. */
function isReviewUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** A change record's reference: a ticket id or a review URL; nothing a page could run (`javascript:`). */
const changeReference = evidenceLine(300).refine(
  (s) => TICKET_ID.test(s) || isReviewUrl(s),
  "must be an http(s) URL or a ticket id (letters, digits, '-', '_', '#', '/', '.')",
);

/** CHANGE_RECORD: what changed and why, with a reference a reviewer can open. */
const changeRecordSchema = z.strictObject({
  summary: evidenceText(2_000),
  /** A ticket id or review URL. */
  reference: changeReference.optional(),
  risk: z.enum(["LOW", "MEDIUM", "HIGH"]),
});

/** MODEL_COMPATIBILITY: a verdict per model profile. */
const modelCompatibilitySchema = z.strictObject({
  profiles: z
    .array(
      z.strictObject({
        profile: z.string().regex(MODEL_PROFILE, "must be <provider>:<model>@<budget profile>"),
        verdict: z.enum(["COMPATIBLE", "INCOMPATIBLE"]),
        note: evidenceLine(500).optional(),
      }),
    )
    .min(1)
    .max(32),
});

const tokens = z.number().int().min(1).max(1_000_000);

/** BUDGET_PROFILE: the L1 and L2 token budgets the bundle was reviewed with (element B8). */
const budgetProfileSchema = z.strictObject({
  profiles: z
    .array(
      z.strictObject({
        family: z.enum(["L1", "L2"]),
        name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/),
        maxTokens: tokens,
        systemTokens: tokens,
        userTokens: tokens,
        outputTokens: tokens,
      }),
    )
    .min(1)
    .max(8),
});

/** TOKEN_COUNTING_POLICY: which encoding budgets are counted in, and the headroom kept for other vendors. */
const tokenCountingPolicySchema = z.strictObject({
  encoding: z.string().regex(/^[a-z0-9_]{1,32}$/),
  headroomPercent: z.number().int().min(0).max(100),
  rationale: evidenceText(1_000),
});

/** CACHE_POLICY: whether and how long prompts or answers may be cached. */
const cachePolicySchema = z
  .strictObject({
    mode: z.enum(["NONE", "PROVIDER_PREFIX_CACHE", "RESPONSE_CACHE"]),
    /** Required unless `mode` is NONE. */
    maxAgeSeconds: z.number().int().min(1).max(86_400).optional(),
    rationale: evidenceText(1_000),
  })
  .refine((p) => (p.mode === "NONE") === (p.maxAgeSeconds === undefined), {
    message: "maxAgeSeconds is required with a cache and refused without one",
    path: ["maxAgeSeconds"],
  });

/** The compaction strategies: how a prompt over its budget is made to fit. */
export const COMPACTION_STRATEGIES = ["CUT_SECTIONS_BY_PRIORITY", "DROP_PAST_RECORDS", "NONE"] as const;

/** COMPACTION_POLICY: what is cut when a prompt is over its budget. */
const compactionPolicySchema = z.strictObject({
  strategy: z.enum(COMPACTION_STRATEGIES),
  rationale: evidenceText(1_000),
});

/** Each kind's content schema (docs/prompt-governance.md lists them with what the gate checks). */
export const EVIDENCE_CONTENT_SCHEMAS: Readonly<Record<EvidenceKind, z.ZodType>> = {
  CHANGE_RECORD: changeRecordSchema,
  EVALUATION_RUN: evaluationRunSchema,
  MODEL_COMPATIBILITY: modelCompatibilitySchema,
  BUDGET_PROFILE: budgetProfileSchema,
  TOKEN_COUNTING_POLICY: tokenCountingPolicySchema,
  CACHE_POLICY: cachePolicySchema,
  COMPACTION_POLICY: compactionPolicySchema,
  SHADOW_COMPARISON: shadowComparisonSchema,
  REHEARSAL: rehearsalSchema,
};

/** Largest canonical JSON of one kind's content, in characters: a run record holds its cases. */
export const MAX_EVIDENCE_CONTENT_CHARS: Readonly<Record<EvidenceKind, number>> = {
  CHANGE_RECORD: 8_192,
  EVALUATION_RUN: 1_048_576,
  MODEL_COMPATIBILITY: 16_384,
  BUDGET_PROFILE: 8_192,
  TOKEN_COUNTING_POLICY: 4_096,
  CACHE_POLICY: 4_096,
  COMPACTION_POLICY: 4_096,
  SHADOW_COMPARISON: 524_288,
  REHEARSAL: 131_072,
};

/** The content types of the kinds the gate reads field by field. */
export type ModelCompatibilityContent = z.output<typeof modelCompatibilitySchema>;
/** BUDGET_PROFILE content. */
export type BudgetProfileContent = z.output<typeof budgetProfileSchema>;
/** TOKEN_COUNTING_POLICY content. */
export type TokenCountingPolicyContent = z.output<typeof tokenCountingPolicySchema>;
/** COMPACTION_POLICY content. */
export type CompactionPolicyContent = z.output<typeof compactionPolicySchema>;
