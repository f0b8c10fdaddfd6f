import { z } from "zod";
import { PlatformError } from "../../kernel/platform-error.js";

const text = z.string().min(1).max(512);
const texts = z.array(text).max(64);
const instant = z.iso.datetime({ offset: true });

/** One earlier decision the retrieval found, as the input carries it. */
const pastRecordSchema = z.strictObject({
  id: text,
  time: instant,
  subject: text.optional(),
  method: text.optional(),
  target: text.optional(),
  network: text.optional(),
  device: text.optional(),
  decision: text,
  riskScore: z.number().min(0).max(1).optional(),
  confidence: z.number().min(0).max(1).optional(),
  outcome: text.optional(),
});

/**
 * Everything a security-decision prompt may draw on, for one event. Every fact is optional: what
 * is absent is rendered by each layout's rule for a missing value. `markedMissing` names the facts
 * (dictionary entry keys such as `request.device`) the caller expected and could not get.
 */
export const promptInputSchema = z.strictObject({
  eventId: text,
  request: z
    .strictObject({
      subject: text.optional(),
      time: instant.optional(),
      roles: texts.optional(),
      permissions: texts.optional(),
      method: text.optional(),
      target: text.optional(),
      size: z.number().int().min(0).optional(),
      network: text.optional(),
      device: text.optional(),
    })
    .default({}),
  identity: z
    .strictObject({
      department: text.optional(),
      accountAgeDays: z.number().int().min(0).optional(),
      mfaEnrolled: z.boolean().optional(),
    })
    .default({}),
  session: z
    .strictObject({
      ageSeconds: z.number().int().min(0).optional(),
      requestCount: z.number().int().min(0).optional(),
      mfaCompletedAt: instant.optional(),
    })
    .default({}),
  device: z
    .strictObject({
      trusted: z.boolean().optional(),
      platform: text.optional(),
      firstSeen: instant.optional(),
    })
    .default({}),
  location: z.strictObject({ country: text.optional(), asn: text.optional() }).default({}),
  pattern: z
    .strictObject({
      usualHours: text.optional(),
      usualNetworks: texts.optional(),
      usualTargets: texts.optional(),
    })
    .default({}),
  context: z
    .strictObject({
      coverage: texts.optional(),
      evidence: texts.optional(),
      learning: texts.optional(),
      roleScope: texts.optional(),
      friction: texts.optional(),
      delegation: texts.optional(),
      threatMemory: texts.optional(),
      intent: texts.optional(),
    })
    .default({}),
  pastRecords: z.array(pastRecordSchema).max(256).default([]),
  markedMissing: texts.default([]),
});

/** A prompt input after validation (defaults filled). */
export type PromptInput = z.output<typeof promptInputSchema>;
/** One past record of a prompt input. */
export type PastRecordInput = z.output<typeof pastRecordSchema>;

/** Validates `raw` (parsed JSON) as a prompt input; PROMPT_INPUT_INVALID names every bad field. */
export function parsePromptInput(raw: unknown): PromptInput {
  const result = promptInputSchema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join(".") || "(input)"}: ${i.message}`);
  throw new PlatformError("PROMPT_INPUT_INVALID", "The prompt input is not valid", { details: { issues } });
}
