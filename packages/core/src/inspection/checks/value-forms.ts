import type { ValueForm } from "../../prompts/layouts/v20/v20-dictionary.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f\u2028\u2029{}|]/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const WHOLE = "(?:0|[1-9]\\d*)";
const TERM = /^[A-Z][A-Z0-9_]*$/;
const FORMS: Record<ValueForm, (v: string) => boolean> = {
  text: (v) => v !== "",
  list: (v) => v !== "",
  instant: (v) => INSTANT.test(v),
  integer: (v) => new RegExp(`^${WHOLE}$`).test(v),
  bytes: (v) => new RegExp(`^${WHOLE} B$`).test(v),
  seconds: (v) => new RegExp(`^${WHOLE} s$`).test(v),
  "yes-no": (v) => v === "yes" || v === "no",
  term: (v) => TERM.test(v),
  network: (v) => /^[A-Z][A-Z0-9_]* \(.+\)$/.test(v),
};

/** True when `value` is written in `form`: one safe line of at most 120 characters, in the form's shape. */
export function isInForm(form: ValueForm, value: string): boolean {
  return value.length <= 120 && !UNSAFE.test(value) && FORMS[form](value);
}
