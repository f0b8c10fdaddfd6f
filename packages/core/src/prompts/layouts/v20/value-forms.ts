import type { ValueForm } from "./v20-dictionary.js";

const MAX_CHARS = 120;
const MAX_ITEMS = 8;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/g;

/**
 * One line of safe text: control characters and line feeds become a space, braces become
 * parentheses and `|` a slash (no input can forge a fact ID or a record field), at most 120 characters.
 */
export function oneLine(value: string): string {
  const clean = value.replace(CONTROL, " ").replaceAll("{", "(").replaceAll("}", ")").replaceAll("|", "/");
  return clean.length > MAX_CHARS ? `${clean.slice(0, MAX_CHARS - 1)}…` : clean;
}

/** An ISO-8601 instant in UTC to the second. */
export function utcInstant(value: string): string {
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A present value written in `form` (docs/prompt-v20-dictionary.md, "Forms"). */
export function writeValue(form: ValueForm, value: unknown): string {
  switch (form) {
    case "list": {
      const items = value as readonly string[];
      if (items.length === 0) return "(none)";
      const shown = items.slice(0, MAX_ITEMS).join(", ");
      return oneLine(items.length > MAX_ITEMS ? `${shown} (+${items.length - MAX_ITEMS} more)` : shown);
    }
    case "instant":
      return utcInstant(value as string);
    case "bytes":
      return `${value} B`;
    case "seconds":
      return `${value} s`;
    case "yes-no":
      return value ? "yes" : "no";
    case "network": {
      const { term, address } = value as { term: string; address: string };
      return `${term} (${oneLine(address)})`;
    }
    default:
      return oneLine(String(value));
  }
}
