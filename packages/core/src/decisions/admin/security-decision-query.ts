import { PlatformError } from "../../kernel/platform-error.js";
import { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";
import type { DecisionAction, DecisionLayer } from "../engine/decision-record.js";

/** Most decisions one list answers; the default is 50. */
export const SECURITY_DECISIONS_MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;
const MAX_USER = 256;
const PARAMS = ["user", "action", "layer", "since", "until", "limit"] as const;
const LAYERS: readonly DecisionLayer[] = ["L1", "L2"];

/** The filters of `GET /platform/admin/api/security-decisions`, checked. */
export interface SecurityDecisionQuery {
  /** A user id or a username, as sent. */
  readonly user?: string;
  readonly action?: DecisionAction;
  readonly layer?: DecisionLayer;
  /** Inclusive bounds, epoch milliseconds. */
  readonly since?: number;
  readonly until?: number;
  readonly limit: number;
}

/**
 * Reads the list's query: `user`, `action` (ALLOW, CHALLENGE, ESCALATE, BLOCK), `layer` (L1, L2),
 * `since`/`until` (epoch milliseconds or an ISO-8601 instant), `limit` (1..200, default 50). An
 * unknown or repeated parameter, an empty or overlong value, control characters or a bound after
 * the other are VALIDATION_FAILED naming the parameter: an administrator's typo must not read as
 * "no decisions".
 */
export function parseSecurityDecisionQuery(query: URLSearchParams): SecurityDecisionQuery {
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!(PARAMS as readonly string[]).includes(key))
      throw invalid(`Unknown parameter; expected ${PARAMS.join(", ")}`, key);
    if (seen.has(key)) throw invalid(`${key} is given more than once`, key);
    seen.add(key);
  }
  const text = (key: (typeof PARAMS)[number]): string | undefined => {
    const value = query.get(key);
    if (value === null) return undefined;
    if (value === "" || value.length > MAX_USER || /\p{Cc}/u.test(value))
      throw invalid(`${key} must be 1 to ${MAX_USER} printable characters`, key);
    return value;
  };
  const action = text("action");
  if (action !== undefined && !(DECISION_ACTIONS as readonly string[]).includes(action))
    throw invalid(`action must be one of ${DECISION_ACTIONS.join(", ")}`, "action");
  const layer = text("layer");
  if (layer !== undefined && !(LAYERS as readonly string[]).includes(layer))
    throw invalid("layer must be L1 or L2", "layer");
  const since = instant(text("since"), "since");
  const until = instant(text("until"), "until");
  if (since !== undefined && until !== undefined && since > until)
    throw invalid("since must not be after until", "since");
  const limitText = text("limit");
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!/^\d{1,4}$/.test(limitText ?? "1") || limit < 1 || limit > SECURITY_DECISIONS_MAX_LIMIT)
    throw invalid(`limit must be an integer from 1 to ${SECURITY_DECISIONS_MAX_LIMIT}`, "limit");
  const user = text("user");
  return {
    ...(user === undefined ? {} : { user }),
    ...(action === undefined ? {} : { action: action as DecisionAction }),
    ...(layer === undefined ? {} : { layer: layer as DecisionLayer }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    limit,
  };
}

// Epoch milliseconds (digits only) or an ISO-8601 instant with a date; nothing else.
function instant(value: string | undefined, key: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{1,15}$/.test(value)
    ? Number(value)
    : /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
      ? Date.parse(value)
      : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw invalid(`${key} must be epoch milliseconds or an ISO-8601 instant`, key);
  return ms;
}

function invalid(message: string, field: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", message, { details: { fields: [field.slice(0, 64)] } });
}
