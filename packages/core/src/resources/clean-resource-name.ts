import type { ResourceName } from "./scanned-resource.js";

/** Longest friendly name kept (longer ones are cut at a word boundary). */
export const MAX_FRIENDLY_NAME_LENGTH = 80;
/** Longest description kept. */
export const MAX_RESOURCE_DESCRIPTION_LENGTH = 300;

// Control and format characters (C0, C1, zero-width and bidi overrides), markup and its pieces.
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]+/gu;
const TAG = /<[^<>]{0,200}>/g;
const MARKUP = /[<>]/g;
const SPACE = /\s+/g;

/**
 * A proposed name as the platform keeps it: control and format characters (bidi overrides, zero-width
 * joiners) and HTML tags removed, any `<` or `>` left dropped, whitespace collapsed, trimmed, cut at
 * MAX_FRIENDLY_NAME_LENGTH / MAX_RESOURCE_DESCRIPTION_LENGTH characters on a word boundary. Undefined
 * when the friendly name is empty after cleaning (the caller falls back); an empty description
 * becomes the friendly name.
 */
export function cleanResourceName(proposed: unknown): ResourceName | undefined {
  if (typeof proposed !== "object" || proposed === null) return undefined;
  const { friendlyName, description } = proposed as Record<string, unknown>;
  if (typeof friendlyName !== "string") return undefined;
  const name = cleanText(friendlyName, MAX_FRIENDLY_NAME_LENGTH);
  if (name === "") return undefined;
  const text = typeof description === "string" ? cleanText(description, MAX_RESOURCE_DESCRIPTION_LENGTH) : "";
  return { friendlyName: name, description: text === "" ? name : text };
}

function cleanText(raw: string, max: number): string {
  // Cap before the regexes run: an answer is at most a few KB, but a host's namer may be careless.
  const text = raw
    .slice(0, max * 8)
    .replace(CONTROL, " ")
    .replace(TAG, " ")
    .replace(MARKUP, "")
    .replace(SPACE, " ")
    .trim();
  return cut(text, max);
}

function cut(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join("");
  const space = head.lastIndexOf(" ");
  return (space > max / 2 ? head.slice(0, space) : head).trimEnd();
}
