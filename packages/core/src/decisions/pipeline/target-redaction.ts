import { classifyNetwork } from "../../prompts/vocabulary/vocabulary.js";
import type { RedactionPolicy } from "./prompt-redaction.js";

/**
 * A path segment an external model may always see: a plain lower-case word of up to 24 characters
 * (`orders`, `api`, `payment-methods`). Upper case, digits or more length make it an `{id}`: tokens
 * and encoded names rarely pass, route words always do.
 */
const WORD = /^[a-z][a-z_-]{0,23}$/;

/**
 * A request target as an external model may see it: the query and fragment removed, and each path
 * segment that is not a plain word replaced by what it looks like: `{email}` (it holds an `@`),
 * `{address}` (an IP address), `{id}` (anything else: numbers, UUIDs, tokens, escapes, long text),
 * unless a property allows that kind (`allow-email`, `allow-address`, `allow-free-text` for ids and
 * the query). Plain words stay, so the vocabulary's prefixes (`/admin/`, `/api/users/`) and the
 * action and resource class derived from them survive. Linear in the target's length.
 */
export function redactTarget(target: string, policy: RedactionPolicy): string {
  const cut = firstOf(target, "?", "#");
  const path = cut < 0 ? target : target.slice(0, cut);
  const rest = cut < 0 || !policy.allowFreeText ? "" : target.slice(cut);
  return path
    .split("/")
    .map((s) => maskSegment(s, policy))
    .join("/")
    .concat(rest);
}

function maskSegment(segment: string, policy: RedactionPolicy): string {
  if (segment === "" || WORD.test(segment)) return segment;
  const text = decoded(segment);
  if (text.includes("@")) return policy.allowEmail ? segment : "{email}";
  if (classifyNetwork(text) !== undefined) return policy.allowAddress ? segment : "{address}";
  return policy.allowFreeText ? segment : "{id}";
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function firstOf(text: string, ...marks: string[]): number {
  const found = marks.map((m) => text.indexOf(m)).filter((i) => i >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}
