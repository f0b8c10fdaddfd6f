import { escapeHtml } from "../../web/html-escape.js";
import type { FactorType } from "../factor-type.js";
import { type HiddenInputs, hiddenInputsHtml } from "./hidden-inputs-html.js";

/** Human names of the built-in factors, as the pages show them (a plugin's factor brings its own). */
export const FACTOR_LABELS: Readonly<Record<FactorType, string>> = {
  OTT: "One-time code",
  PASSKEY: "Passkey",
};

/** The page name of `type`: the family's label, else the built-in one, else the type itself. */
export function factorLabel(type: FactorType, labels?: Readonly<Record<FactorType, string>>): string {
  return labels?.[type] ?? FACTOR_LABELS[type] ?? type;
}

/** The id fragment of `type` in element ids: `OTT` → `Ott`, `RECOVERY_CODE` → `RecoveryCode`. */
export function factorIdPart(type: FactorType): string {
  return type
    .split("_")
    .map((w) => w.charAt(0) + w.slice(1).toLowerCase())
    .join("");
}

/** An error (`role="alert"`) or status (`role="status"`) line, escaped; empty without text. */
export function noticeHtml(kind: "error" | "status", text: string | undefined): string {
  if (text === undefined || text === "") return "";
  return kind === "error"
    ? `<p id="mfaNotice" role="alert" class="error">${escapeHtml(text)}</p>`
    : `<p id="mfaNotice" role="status">${escapeHtml(text)}</p>`;
}

/** The "Cancel sign-in" form: a plain POST to the cancel endpoint with the hidden-inputs block. */
export function cancelFormHtml(cancelUrl: string, hidden: HiddenInputs): string {
  return `<form id="cancelForm" method="post" action="${escapeHtml(cancelUrl)}">
${hiddenInputsHtml(hidden)}
<button id="cancelButton" type="submit">Cancel sign-in</button>
</form>`;
}

/** The "Try another method" link to the factor selection page; empty when no other factor is left. */
export function tryAnotherMethodHtml(selectFactorPageUrl: string | undefined): string {
  if (selectFactorPageUrl === undefined) return "";
  return `<p><a id="tryAnotherMethodLink" class="link" href="${escapeHtml(selectFactorPageUrl)}">Try another method</a></p>`;
}
