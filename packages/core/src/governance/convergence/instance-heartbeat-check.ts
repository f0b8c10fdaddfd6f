import { SELECTION_SOURCES } from "../../decisions/engine/bundle-selection.js";
import { PlatformError } from "../../kernel/platform-error.js";
import {
  HEARTBEAT_SELECTORS,
  HEARTBEAT_TEXT_LIMITS,
  type InstanceHeartbeat,
  MAX_HEARTBEAT_SERVINGS,
  type ScopeServing,
} from "./instance-heartbeat-store.js";

const SOURCES = new Set<unknown>(SELECTION_SOURCES);
const SERVING_TEXT = ["registryScope", "promptKey", "promptVersion", "bundleHash"] as const;

function invalid(message: string, field: string): never {
  throw new PlatformError("VALIDATION_FAILED", message, { details: { fields: [field] } });
}

function isText(v: unknown, max: number): v is string {
  return typeof v === "string" && v.length > 0 && v.length <= max;
}

function isTime(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

function checkServing(s: ScopeServing, i: number): ScopeServing {
  if (s === null || typeof s !== "object") invalid(`serving[${i}] is not an object`, "serving");
  for (const f of SERVING_TEXT)
    if (!isText(s[f], HEARTBEAT_TEXT_LIMITS[f]))
      invalid(`serving[${i}].${f} must be 1 to ${HEARTBEAT_TEXT_LIMITS[f]} characters`, `serving.${f}`);
  if (!SOURCES.has(s.source)) invalid(`serving[${i}].source is not a selection source`, "serving.source");
  const { registryScope, promptKey, promptVersion, bundleHash, source } = s;
  return { registryScope, promptKey, promptVersion, bundleHash, source };
}

/**
 * The checks every InstanceHeartbeatStore makes before it writes a beat (shared by the in-memory and
 * MongoDB adapters). Answers a copy holding the heartbeat's own fields only (anything else a caller
 * put in, an `_id` say, is dropped); VALIDATION_FAILED names the first problem.
 */
export function checkInstanceHeartbeat(h: InstanceHeartbeat): InstanceHeartbeat {
  if (h === null || typeof h !== "object") invalid("a heartbeat must be an object", "heartbeat");
  if (!isText(h.instanceId, HEARTBEAT_TEXT_LIMITS.instanceId))
    invalid(`instanceId must be 1 to ${HEARTBEAT_TEXT_LIMITS.instanceId} characters`, "instanceId");
  for (const f of ["startedAt", "at"] as const)
    if (!isTime(h[f])) invalid(`${f} must be a non-negative integer (epoch milliseconds)`, f);
  if (!Array.isArray(h.serving) || h.serving.length > MAX_HEARTBEAT_SERVINGS)
    invalid(`serving must be a list of at most ${MAX_HEARTBEAT_SERVINGS} entries`, "serving");
  const seen = new Set<string>();
  const serving = h.serving.map((s, i) => {
    const entry = checkServing(s, i);
    const key = `${entry.registryScope}\u0000${entry.promptKey}\u0000${entry.source}`;
    if (seen.has(key))
      invalid(`serving lists ${entry.registryScope} / ${entry.promptKey} / ${entry.source} twice`, "serving");
    seen.add(key);
    return entry;
  });
  if (h.selector !== undefined && !(HEARTBEAT_SELECTORS as readonly unknown[]).includes(h.selector))
    invalid(`selector must be ${HEARTBEAT_SELECTORS.join(" or ")}`, "selector");
  const record = { instanceId: h.instanceId, startedAt: h.startedAt, at: h.at, serving };
  return h.selector === undefined ? record : { ...record, selector: h.selector };
}

/** VALIDATION_FAILED unless `olderThan` (of `prune`) is a non-negative integer. */
export function checkPruneBefore(olderThan: number): void {
  if (!isTime(olderThan))
    invalid("olderThan must be a non-negative integer (epoch milliseconds)", "olderThan");
}
