import type { ErrorCodesOf, ErrorCodeTable, PlatformErrorDetails } from "./error-code-table.js";

/**
 * The kernel's error codes: the general ones every module reuses (validation, not found, conflicts,
 * illegal transitions) and those of start-up and configuration, which answer 500 if they ever reach a client.
 */
export const KERNEL_ERROR_CODES = {
  VALIDATION_FAILED: {
    status: 400,
    meaning: "A request field or an argument broke a rule; `issues`, `fields` or `field` name which.",
    remedy: "Correct the named fields and send the request again.",
  },
  NOT_FOUND: {
    status: 404,
    meaning: "No route, record or resource answers to what the request named.",
    remedy: "Check the path or identifier; list the collection to find what exists.",
  },
  CONFLICT: {
    status: 409,
    meaning: "The change lost a race or clashes with what is stored (a stale version, a duplicate name).",
    remedy: "Read the record again and retry the change against its current version.",
  },
  ILLEGAL_STATE_TRANSITION: {
    status: 409,
    meaning:
      "The object is not in a state that allows this step (approving a rejected policy, starting a started platform).",
    remedy: "Read the object's current state and take a step that state allows.",
  },
  CONFIGURATION_INVALID: {
    status: 500,
    meaning:
      "The platform's configuration or composition is wrong (a route or chain clash, a missing option).",
    remedy: "Operator: fix the configuration named in the log line; clients see INTERNAL_ERROR.",
  },
  UNSUPPORTED_OPERATION: {
    status: 500,
    meaning: "The code called a builder method that this builder does not offer.",
    remedy: "Developer: use the alternative the message names.",
  },
  PROPERTY_INVALID: {
    status: 500,
    meaning:
      "A property is unknown or its value breaks its rule; `key`, `value`, `source` and `rule` say which.",
    remedy: "Operator: correct or remove the property in the source named, then start again.",
  },
  DEPENDENCY_MISSING: {
    status: 500,
    meaning: "A feature was used without the plugin or platform it needs.",
    remedy: "Developer: add the plugin the message names, or attach the API to a platform.",
  },
  DEPENDENCY_UNAVAILABLE: {
    status: 503,
    meaning: "A store or service the platform depends on did not answer; the request changed nothing.",
    remedy:
      "Retry later; GET /health names the dependency that is down, and service resumes by itself when it is back.",
  },
  TIMEOUT: {
    status: 504,
    meaning: "A port the platform called (such as the RiskAnalyzer) gave no answer within its deadline.",
    remedy: "Operator: check the dependency's health and latency, or raise its timeout.",
  },
  INTERNAL_ERROR: {
    status: 500,
    meaning: "Something unexpected failed; the answer carries only a correlation id.",
    remedy: "Retry later; give the operator the correlation id, which the log line also carries.",
  },
} as const satisfies ErrorCodeTable;

/** One problem of a VALIDATION_FAILED answer: where it is and what is wrong there. */
export interface ValidationIssue {
  path: string;
  message: string;
  /** 0-based offset of the problem in the field's text, when known. */
  position?: number;
  /** What is wrong at `position`. */
  reason?: string;
}

/** The details of the kernel's codes that carry any. */
export type KernelErrorDetails = {
  /** `issues` (one per problem), or the `fields`/`field` at fault; some rules add their limit (`maxLength`, `allowed`). */
  VALIDATION_FAILED: {
    issues?: readonly ValidationIssue[];
    fields?: readonly string[];
    field?: string;
    [extra: string]: unknown;
  };
  /** Versions of a lost compare-and-set, or the limit a store ran into. */
  CONFLICT: PlatformErrorDetails;
  /** The state that refused the step. */
  ILLEGAL_STATE_TRANSITION: PlatformErrorDetails;
  /** Operator-facing facts about the wrong configuration (never shown to a client). */
  CONFIGURATION_INVALID: PlatformErrorDetails;
  PROPERTY_INVALID: {
    key: string;
    source: string;
    /** The source named: `code` or the config module, `env NAME`, `file PATH`. */
    origin?: string;
    rule: string;
    value?: unknown;
    /** The declared key nearest to an unknown one. */
    nearest?: string;
  };
  /** The dependency that did not answer, by its `/health` name (`mongodb`). */
  DEPENDENCY_UNAVAILABLE: { dependency?: string };
};

/** The kernel's codes mapped to their details types (merged into PlatformErrorCodes). */
export type KernelErrorCodes = ErrorCodesOf<typeof KERNEL_ERROR_CODES, KernelErrorDetails>;
