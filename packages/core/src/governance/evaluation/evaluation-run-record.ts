import { z } from "zod";
import { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";
import { evidenceLine, sha256Field } from "../evidence/evidence-text.js";
import { CASE_ID, FAMILY_NAME } from "./scenario-family.js";

/** The most case results one run record may hold (cases × repetitions). */
export const MAX_RUN_CASE_RESULTS = 4_000;

const rate = z.number().min(0).max(1);
const count = z.number().int().min(0).max(MAX_RUN_CASE_RESULTS);
const familyName = z.string().regex(FAMILY_NAME);

/** One graded decision of a run: a case, one repetition of it, what the model decided, how long, how many tokens. */
const caseResultSchema = z.strictObject({
  family: familyName,
  caseId: z.string().regex(CASE_ID),
  owaspId: z
    .string()
    .regex(/^[A-Z0-9:.-]{1,32}$/)
    .nullable(),
  repetition: z.number().int().min(1).max(20),
  passed: z.boolean(),
  action: z.enum(DECISION_ACTIONS),
  latencyMs: z.number().min(0).max(3_600_000),
  tokens: z.number().int().min(0).max(10_000_000),
});

const tallySchema = z.strictObject({ trials: count, passed: count, passRate: rate, lowerBound: rate });

/** The run's summary: every number in it is recomputed by the server from `cases`. */
const summarySchema = z.strictObject({
  /** How `lowerBound` is computed: the Wilson score interval at 95 %. */
  confidence: z.literal("wilson-95"),
  families: z
    .array(tallySchema.extend({ family: familyName }))
    .min(1)
    .max(32),
  overall: tallySchema,
  /** Nearest-rank p95 of the decisions' latency, milliseconds. */
  latencyP95Ms: z.number().min(0).max(3_600_000),
  /** Mean tokens per decision (o200k_base: prompts sent and answers received, both layers, retries included). */
  tokensPerDecision: z.number().min(0).max(10_000_000),
});

/**
 * The content of an EVALUATION_RUN: what `platform bundles evaluate` ran (bundle, test set, model,
 * grader, repetitions, families), every graded decision, and the summary. Unknown fields are refused.
 */
export const evaluationRunSchema = z.strictObject({
  format: z.literal("evaluation-run/1"),
  testSetHash: sha256Field,
  promptKey: evidenceLine(128),
  promptVersion: evidenceLine(64),
  bundleHash: sha256Field,
  model: z.strictObject({ provider: evidenceLine(64), name: evidenceLine(200) }),
  grader: z.strictObject({ name: evidenceLine(64), version: z.number().int().min(1).max(1_000) }),
  repetitions: z.number().int().min(1).max(20),
  families: z.array(familyName).min(1).max(32),
  startedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }),
  /** SHA-256 of the database policies the run decided with; absent on a host without policy sets. */
  policySetHash: sha256Field.optional(),
  cases: z.array(caseResultSchema).min(1).max(MAX_RUN_CASE_RESULTS),
  summary: summarySchema,
});

/** An evaluation run record (EVALUATION_RUN content). */
export type EvaluationRunRecord = z.output<typeof evaluationRunSchema>;
/** One graded decision of a run. */
export type CaseResult = z.output<typeof caseResultSchema>;
/** A run's summary. */
export type EvaluationSummary = z.output<typeof summarySchema>;
