import { sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { PastRecordInput, PromptInput } from "../../prompts/input/prompt-input.js";
import { classifyNetwork, VOCABULARY } from "../../prompts/vocabulary/vocabulary.js";
import { redactTarget } from "./target-redaction.js";

/** What an external model may see unmasked (`platform.security.decision.redaction.*`). */
export interface RedactionPolicy {
  readonly allowEmail: boolean;
  readonly allowAddress: boolean;
  readonly allowFreeText: boolean;
}

/** A redacted input and the dotted paths of the fields that were masked. */
export interface RedactedInput {
  readonly input: PromptInput;
  readonly redacted: readonly string[];
}

/** The context lists that hold free text (everything but `coverage`, which names fact families). */
const FREE_TEXT_CONTEXT = [
  "evidence",
  "learning",
  "roleScope",
  "friction",
  "delegation",
  "threatMemory",
  "intent",
] as const;

/**
 * One address per network class, so the layouts still derive the class: the network address of the
 * class's first range, and the unspecified address 0.0.0.0 for the default class (it is in no range).
 */
const CLASS_ADDRESS: ReadonlyMap<string, string> = new Map([
  ...[...VOCABULARY.networks].reverse().map((n) => [n.term, n.range.split("/")[0]!] as const),
  [VOCABULARY.networkDefault, "0.0.0.0"],
]);

/**
 * Masks what an external model must not see unless a property allows it: a username that is an
 * e-mail address becomes `user-<12 hex of its SHA-256>` (stable, so past records still match); an IP
 * address becomes its network class's representative address (the class survives, the host does
 * not); a request target keeps its plain-word path segments, the others masked by kind and the query
 * removed (redactTarget); free text (department, usual hours, the context lists but coverage) is removed. The input
 * is not changed; the answer lists every masked path once.
 */
export function redactForExternalModel(input: PromptInput, policy: RedactionPolicy): RedactedInput {
  const redacted = new Set<string>();
  const subject = (v: string | undefined, path: string) => {
    // Anything with an `@` counts (`a@b@c`, a trailing space, a quoted local part): better one
    // pseudonym too many than one address out.
    if (v === undefined || policy.allowEmail || !v.includes("@")) return v;
    redacted.add(path);
    return `user-${sha256Hex(v.trim().toLowerCase()).slice(0, 12)}`;
  };
  const address = (v: string | undefined, path: string) => {
    if (v === undefined || policy.allowAddress) return v;
    const term = classifyNetwork(v);
    if (term === undefined) {
      // Not an address this parser reads (a port, a zone, brackets, zero-padding): it is not shown.
      redacted.add(path);
      return undefined;
    }
    const shown = CLASS_ADDRESS.get(term) ?? "0.0.0.0";
    if (shown !== v) redacted.add(path);
    return shown;
  };
  const target = (v: string | undefined, path: string) => {
    if (v === undefined) return v;
    const shown = redactTarget(v, policy);
    if (shown !== v) redacted.add(path);
    return shown;
  };
  const request = { ...input.request };
  setOrDelete(request, "subject", subject(request.subject, "request.subject"));
  setOrDelete(request, "network", address(request.network, "request.network"));
  setOrDelete(request, "target", target(request.target, "request.target"));
  const pastRecords = input.pastRecords.map((r): PastRecordInput => {
    const out = { ...r };
    setOrDelete(out, "subject", subject(r.subject, "pastRecords.subject"));
    setOrDelete(out, "network", address(r.network, "pastRecords.network"));
    setOrDelete(out, "target", target(r.target, "pastRecords.target"));
    return out;
  });
  const identity = { ...input.identity };
  const pattern = { ...input.pattern };
  const context = { ...input.context };
  if (!policy.allowFreeText) {
    if (identity.department !== undefined) drop(identity, "department", "identity.department", redacted);
    if (pattern.usualHours !== undefined) drop(pattern, "usualHours", "pattern.usualHours", redacted);
    for (const key of FREE_TEXT_CONTEXT)
      if (context[key] !== undefined) drop(context, key, `context.${key}`, redacted);
  }
  return {
    input: { ...input, request, identity, pattern, context, pastRecords },
    redacted: [...redacted],
  };
}

function setOrDelete<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}

function drop<T extends object>(target: T, key: keyof T, path: string, redacted: Set<string>): void {
  delete target[key];
  redacted.add(path);
}
