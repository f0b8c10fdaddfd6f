import { escapeHtml } from "../../web/html-escape.js";
import type { FactorType } from "../factor-type.js";
import { type HiddenInputs, hiddenInputsHtml } from "./hidden-inputs-html.js";

/** Human names of the factors, as the pages show them. */
export const FACTOR_LABELS: Readonly<Record<FactorType, string>> = {
  OTT: "One-time code",
  PASSKEY: "Passkey",
};

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
