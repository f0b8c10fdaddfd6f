import type { DecisionEvent } from "../../decisions/pipeline/decision-event.js";
import type { DecisionOutcome } from "../../decisions/pipeline/decision-maker.js";
import type { DecisionAction } from "../../decisions/engine/decision-record.js";
import { UNSAFE_TEXT } from "../../kernel/unsafe-text.js";
import type { ResourceFamilyOf } from "../selection/release-snapshots.js";

/** One shadow run set beside the decision enforced on the same input. */
export interface ShadowRunComparison {
  /** The request's resource family (see `resourceFamilyOfEvent`). */
  readonly family: string;
  readonly enforcedAction: DecisionAction;
  readonly shadowAction: DecisionAction;
  /** Reason codes the shadow gave and the enforced decision did not, and the reverse (as sets). */
  readonly added: readonly string[];
  readonly dropped: readonly string[];
  /**
   * The shadow outcome is a recorded fallback (no answer of the model was accepted): its action is
   * not the bundle's, so it counts as a run that did not agree, outside the action pairs and families.
   */
  readonly shadowFellBack: boolean;
  /** The bundle the enforced decision ran. */
  readonly enforcedVersion: string;
  readonly enforcedHash: string;
  /** When the shadow run ended (epoch milliseconds). */
  readonly at: number;
}

/**
 * The resource family a comparison is counted under: `familyOf`'s answer (the managed resource's
 * service owner, else the route's feature), else `event:<kind>` for a request without a target or
 * owner (a sign-in), so such requests are still told apart by what happened and never mixed with a
 * real family's name. A `familyOf` that throws counts as no answer.
 */
export function resourceFamilyOfEvent(
  familyOf: ResourceFamilyOf | undefined,
  event: Pick<DecisionEvent, "kind" | "method" | "target">,
): string {
  let family: string | undefined;
  try {
    family = familyOf?.(event.method, event.target);
  } catch {
    family = undefined;
  }
  return cleanName(family, 128) ?? `event:${event.kind}`;
}

/** Compares a shadow outcome with the enforced outcome of the same input: action, then reason codes. */
export function compareShadowRun(
  enforced: DecisionOutcome,
  shadow: DecisionOutcome,
  family: string,
  at: number,
): ShadowRunComparison {
  const e = codesOf(enforced);
  const s = codesOf(shadow);
  return {
    family,
    enforcedAction: enforced.action,
    shadowAction: shadow.action,
    shadowFellBack: shadow.fallback !== undefined,
    added: [...s].filter((c) => !e.has(c)).sort(),
    dropped: [...e].filter((c) => !s.has(c)).sort(),
    enforcedVersion: enforced.bundleVersion,
    enforcedHash: enforced.bundleHash,
    at,
  };
}

function codesOf(outcome: DecisionOutcome): Set<string> {
  const codes = new Set<string>();
  for (const reason of outcome.reasons) {
    const code = cleanName(reason.code, 64);
    if (code !== undefined) codes.add(code);
  }
  return codes;
}

const UNSAFE_GLOBAL = new RegExp(UNSAFE_TEXT.source, "gu");

/** `text` without control or format characters, trimmed and cut to `max`; undefined when nothing is left. */
function cleanName(text: string | undefined, max: number): string | undefined {
  if (typeof text !== "string") return undefined;
  let out = "";
  // By code points, so a cut never leaves half a surrogate pair.
  for (const ch of text.replace(UNSAFE_GLOBAL, "").trim()) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  out = out.trim();
  return out === "" ? undefined : out;
}
