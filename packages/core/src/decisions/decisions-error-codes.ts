import type { ErrorCodesOf, ErrorCodeTable } from "../kernel/error-code-table.js";
// A module throws the codes of the modules below it too: loading a table loads theirs.
import "../prompts/prompts-error-codes.js";

/**
 * The decisions module's error codes: a model call that gave no answer text (the MODEL_* codes are
 * those of every OpenAI-compatible client, `callOpenAiCompatible`), and a bundle whose
 * inspector or floor definitions this pipeline cannot read. A bad answer text is no error: the
 * response inspector refuses it with a refusal code (docs/security-decisions.md).
 */
export const DECISIONS_ERROR_CODES = {
  DECISION_MODEL_TIMEOUT: {
    status: 504,
    meaning:
      "The decision model gave no answer within the layer's time budget, or the caller aborted the decision; `reason` says which.",
    remedy:
      "Operator: check the model endpoint's latency, or raise `platform.security.decision.l1.timeout` / `l2.timeout`.",
  },
  DECISION_MODEL_UNAVAILABLE: {
    status: 503,
    meaning:
      "The decision model's endpoint failed (network error, 429 or 5xx) on every allowed attempt; `status` is the last HTTP status, if any.",
    remedy:
      "Operator: check the endpoint at `platform.security.decision.model.base-url` and its rate limits.",
  },
  DECISION_MODEL_REFUSED: {
    status: 502,
    meaning:
      "The decision model's endpoint refused the call with a status that retrying cannot fix (400, 401, 403, 404); `status` names it.",
    remedy: "Operator: check the model name, the base URL and the key variable the property names.",
  },
  DECISION_MODEL_MALFORMED: {
    status: 502,
    meaning:
      "The decision model's endpoint answered, but not as a chat completion (not JSON, no choices, no message text).",
    remedy: "Operator: point the base URL at an OpenAI-compatible `/v1` root (docs/security-decisions.md).",
  },
  MODEL_REDIRECT_REFUSED: {
    status: 502,
    meaning:
      "An OpenAI-compatible endpoint answered with a redirect (`status`); no client of one follows a redirect, so the call failed closed.",
    remedy:
      "Operator: set the base URL to the endpoint's final address (the scheme, host and path it redirected to).",
  },
  MODEL_ANSWER_TOO_LARGE: {
    status: 502,
    meaning:
      "An OpenAI-compatible endpoint's answer was larger than the client reads (`limitBytes`; `declaredBytes` when its Content-Length said so); it was not read, and the call failed closed.",
    remedy:
      "Operator: check what answers at the base URL, or raise `platform.security.decision.model.max-answer-size`.",
  },
  RESOURCE_NAMER_FAILED: {
    status: 502,
    meaning:
      "The OpenAI-compatible resource namer's endpoint refused the call (`status`) or answered no valid list of names (`problem`); the batch is retried once, then takes the offline names. Logged, never answered to a client.",
    remedy:
      "Operator: check the endpoint at `platform.security.decision.model.base-url` and its model, or set `platform.authz.resources.namer` to offline.",
  },
  DECISION_BUNDLE_UNSUPPORTED: {
    status: 500,
    meaning:
      "The selected bundle's response inspector (B6) or minimum action rules (B5) are of a version this pipeline does not read, or it lacks an L1 or L2 budget profile (B8); `element` names which.",
    remedy: "Select a bundle this build runs, or update the pipeline with the bundle.",
  },
  EVIDENCE_UNREADABLE: {
    status: 500,
    meaning:
      "A sealed package's payload does not open: the key-ring key that wrapped its key is no longer kept, or the stored ciphertext was changed or moved to another package.",
    remedy:
      "Operator: run `platform evidence verify`; check that `platform.keys.encryption-key` is the one the evidence was sealed under.",
  },
} as const satisfies ErrorCodeTable;

/** The details of the decisions codes that carry any. */
export type DecisionsErrorDetails = {
  DECISION_MODEL_TIMEOUT: { reason: "deadline" | "aborted"; timeoutMs: number };
  DECISION_MODEL_UNAVAILABLE: { attempts: number; status?: number };
  DECISION_MODEL_REFUSED: { status: number };
  DECISION_MODEL_MALFORMED: { problem: string };
  MODEL_REDIRECT_REFUSED: { status: number };
  MODEL_ANSWER_TOO_LARGE: { limitBytes: number; declaredBytes?: number };
  RESOURCE_NAMER_FAILED: { problem: string; status?: number };
  DECISION_BUNDLE_UNSUPPORTED: { version: string; element: "B5" | "B6" | "B8"; issues: readonly string[] };
};

/** The decisions codes mapped to their details types (merged into PlatformErrorCodes). */
export type DecisionsErrorCodes = ErrorCodesOf<typeof DECISIONS_ERROR_CODES, DecisionsErrorDetails>;

declare module "../kernel/error-code-table.js" {
  interface PlatformErrorCodes extends DecisionsErrorCodes {}
}
