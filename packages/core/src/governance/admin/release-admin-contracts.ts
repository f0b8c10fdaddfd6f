import { z } from "zod";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { RouteContract } from "../../web/route-contract.js";
import { RELEASE_STATES } from "../registry/release-state.js";
import {
  ApprovalBody,
  EvidenceBody,
  EvidenceQuery,
  HistoryQuery,
  ReleasesQuery,
  RollbackBody,
  TransitionBody,
  TransitionQuery,
} from "./release-admin-requests.js";

const State = z.enum(RELEASE_STATES);

const Release = z.looseObject({
  registryScope: z.string(),
  promptKey: z.string(),
  templateKey: z.string(),
  promptVersion: z.string(),
  status: State,
  artifactHash: z.string(),
});

const Execution = z.looseObject({
  executionKey: z.string(),
  status: z.enum(["EXECUTED", "REFUSED", "AWAITING_APPROVAL", "RATIFIED", "UNRATIFIED", "REVERTED"]),
  conditions: z.array(z.looseObject({ code: z.string(), outcome: z.string() })),
  operator: z.string(),
});

const Receipt = z.looseObject({
  outcome: z.enum(["APPLIED", "BLOCKED"]),
  dryRun: z.boolean(),
  fromStatus: State,
  targetStatus: State,
  blockers: z.array(z.looseObject({ code: z.string(), detail: z.string() })),
});

const Head = z.looseObject({
  registryScope: z.string(),
  revision: z.number(),
  releases: z.array(Release),
  openExecutions: z.array(Execution),
});

const HistoryEntry = z.looseObject({ id: z.string(), kind: z.string(), actor: z.string(), at: z.number() });
const Evidence = z.looseObject({
  id: z.string(),
  kind: z.string(),
  bundleHash: z.string(),
  recordedBy: z.string(),
});

/** The release admin API's contracts (the OpenAPI document reads them; the handlers parse with the same schemas). */
export const RELEASE_ADMIN_CONTRACTS = {
  list: {
    query: ReleasesQuery,
    responses: {
      200: jsonAnswer("Every scope's head, or one scope's", z.strictObject({ scopes: z.array(Head) })),
    },
    errors: ["VALIDATION_FAILED"],
  },
  transition: {
    query: TransitionQuery,
    body: { schema: TransitionBody, media: ["json"] },
    responses: {
      200: jsonAnswer("Applied (or, with dryRun=true, would apply): the receipt", Receipt),
      422: jsonAnswer(
        "Blocked (or would be): the receipt, with code RELEASE_TRANSITION_BLOCKED and its blockers",
        Receipt.extend({ code: z.literal("RELEASE_TRANSITION_BLOCKED"), message: z.string() }),
      ),
    },
    errors: ["VALIDATION_FAILED", "RELEASE_NOT_FOUND", "RELEASE_REGISTRY_BUSY"],
  },
  rollback: {
    body: { schema: RollbackBody, media: ["json"] },
    responses: {
      200: jsonAnswer("EXECUTED: the execution with every condition checked", Execution),
      202: jsonAnswer("An emergency stop in force, AWAITING_APPROVAL of another administrator", Execution),
      422: jsonAnswer(
        "REFUSED: the execution, with code ROLLBACK_REFUSED and the failed conditions",
        Execution.extend({ code: z.literal("ROLLBACK_REFUSED"), message: z.string() }),
      ),
    },
    errors: ["VALIDATION_FAILED", "RELEASE_NOT_FOUND", "RELEASE_REGISTRY_BUSY"],
  },
  approve: {
    body: { schema: ApprovalBody, media: ["json"], required: false },
    responses: { 200: jsonAnswer("RATIFIED or REVERTED: the execution", Execution) },
    errors: [
      "VALIDATION_FAILED",
      "ROLLBACK_EXECUTION_NOT_FOUND",
      "ROLLBACK_EXECUTION_NOT_OPEN",
      "APPROVAL_BY_OPERATOR_FORBIDDEN",
      "RELEASE_REGISTRY_BUSY",
    ],
  },
  history: {
    query: HistoryQuery,
    responses: { 200: jsonAnswer("Newest first", z.strictObject({ entries: z.array(HistoryEntry) })) },
    errors: ["VALIDATION_FAILED"],
  },
  submitEvidence: {
    body: { schema: EvidenceBody, media: ["json"] },
    responses: { 201: jsonAnswer("Recorded: the evidence record", Evidence) },
    errors: ["VALIDATION_FAILED", "EVIDENCE_INVALID", "EVALUATION_RECORD_INCONSISTENT", "RELEASE_NOT_FOUND"],
  },
  listEvidence: {
    query: EvidenceQuery,
    responses: { 200: jsonAnswer("Newest first", z.strictObject({ evidence: z.array(Evidence) })) },
    errors: ["VALIDATION_FAILED"],
  },
} as const satisfies Record<string, RouteContract>;
