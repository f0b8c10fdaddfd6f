import type { ErrorCodesOf, ErrorCodeTable } from "../kernel/error-code-table.js";
// A module throws the codes of the modules below it too: loading a table loads theirs.
import "../mfa/mfa-error-codes.js";

/** The authorization module's error codes: policy expressions and zero-trust actions. */
export const AUTHZ_ERROR_CODES = {
  POLICY_EXPRESSION_INVALID: {
    status: 400,
    meaning:
      "A policy condition does not parse or compile; `expression`, `position` and `reason` say where and why.",
    remedy: "Fix the expression at `position` (docs/authorization.md lists the language) and save again.",
  },
  ZERO_TRUST_BLOCKED: {
    status: 403,
    meaning:
      "A zero-trust action blocks this user (set by an administrator or the risk analysis); `decisionId` names the security decision that set it, when one did.",
    remedy:
      "Ask an administrator to review it, naming `decisionId` when the answer gives one; the block lasts until it is cleared or its TTL ends.",
  },
  ZERO_TRUST_REVIEW_REQUIRED: {
    status: 423,
    meaning:
      "A zero-trust action (ESCALATE) holds this user's requests until someone reviews them; `decisionId` names the security decision that asked for the review, when one did.",
    remedy:
      "Wait for the review, or ask an administrator to review it (naming `decisionId` when the answer gives one), then retry.",
  },
  ZERO_TRUST_PENDING_ANALYSIS: {
    status: 503,
    meaning: "The risk analysis of this user has not finished; the request is held back for now.",
    remedy: "Retry shortly.",
  },
  SUBJECT_NOT_FOUND: {
    status: 404,
    meaning: "An administrator named a zero-trust subject that is no user.",
    remedy: "Name an existing user by id, or by username as `username:<name>`.",
  },
} as const satisfies ErrorCodeTable;

/** The details of the authorization codes that carry any. */
export type AuthzErrorDetails = {
  /**
   * Where the expression fails; a policy's check adds the rule (name and index) and the condition's
   * index, or `null` for them and the `targetType` when the policy's combined expression fails.
   */
  POLICY_EXPRESSION_INVALID: {
    expression: string;
    position: number;
    reason: string;
    rule?: string | null;
    ruleIndex?: number | null;
    condition?: number | null;
    targetType?: string;
    /** The business-rule field the expression came from (`customConditionSpel`, `aiConditions.0`). */
    field?: string;
  };
  SUBJECT_NOT_FOUND: { fields: readonly string[] };
  /** The security decision that wrote the block, when one did. */
  ZERO_TRUST_BLOCKED: { decisionId?: string };
  /** The security decision that asked for the review, when one did. */
  ZERO_TRUST_REVIEW_REQUIRED: { decisionId?: string };
};

/** The authorization codes mapped to their details types (merged into PlatformErrorCodes). */
export type AuthzErrorCodes = ErrorCodesOf<typeof AUTHZ_ERROR_CODES, AuthzErrorDetails>;

declare module "../kernel/error-code-table.js" {
  interface PlatformErrorCodes extends AuthzErrorCodes {}
}
