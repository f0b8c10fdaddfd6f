import { escapeHtml } from "../../web/html-escape.js";
import type { FactorType } from "../factor-type.js";
import { hiddenInputsHtml } from "./hidden-inputs-html.js";
import { cancelFormHtml, factorIdPart, factorLabel, noticeHtml } from "./mfa-page-parts.js";
import { renderMfaPageShell } from "./mfa-page-shell.js";

/** What the factor selection page shows. */
export interface SelectFactorPageModel {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The caller's MFA session. */
  mfaSessionId: string;
  /** `POST` select-factor endpoint: every factor form's action. */
  selectFactorUrl: string;
  /** `POST` cancel endpoint. */
  cancelUrl: string;
  /** The flow's factors this user can use, in step order. */
  factors: readonly FactorType[];
  /** Factors already completed in this MFA session: left out of the choice. */
  completedFactors: readonly FactorType[];
  /** How many distinct factors must complete. */
  requiredFactors: number;
  /** Who is signing in. */
  username?: string | undefined;
  /** An error line. */
  error?: string | undefined;
  /** The family's labels by factor type (the built-in names otherwise). */
  labels?: Readonly<Record<FactorType, string>> | undefined;
}

/**
 * The factor selection page: one plain POST form per remaining factor (`factorType` = `OTT` or
 * `PASSKEY`), a "step x of N" progress line and a cancel form.
 */
export function renderSelectFactorPage(m: SelectFactorPageModel): string {
  const hidden = { csrfToken: m.csrfToken, mfaSessionId: m.mfaSessionId };
  const completed = new Set(m.completedFactors);
  const remaining = [...new Set(m.factors)].filter((f) => !completed.has(f));
  const step = Math.min(completed.size + 1, Math.max(m.requiredFactors, 1));
  const forms = remaining
    .map((factor) => {
      const id = factorIdPart(factor);
      return `<form id="select${id}Form" method="post" action="${escapeHtml(m.selectFactorUrl)}">
<input type="hidden" name="factorType" value="${factor}">
${hiddenInputsHtml(hidden)}
<button id="select${id}Button" type="submit">${escapeHtml(factorLabel(factor, m.labels))}</button>
</form>`;
    })
    .join("\n");
  const who =
    m.username === undefined
      ? ""
      : `<p id="mfaUser">Signed in as <strong>${escapeHtml(m.username)}</strong>.</p>\n`;
  const choice =
    remaining.length === 0
      ? '<p id="noFactorLeft">No other verification method is available.</p>'
      : `<p>Choose how to verify it is you.</p>\n${forms}`;
  return renderMfaPageShell({
    title: "Verify your identity",
    csrfToken: m.csrfToken,
    config: { "mfa-session-id": m.mfaSessionId, "select-factor-url": m.selectFactorUrl },
    body: `${noticeHtml("error", m.error)}
${who}<p id="mfaProgress">Step ${escapeHtml(String(step))} of ${escapeHtml(String(m.requiredFactors))}</p>
${choice}
${cancelFormHtml(m.cancelUrl, hidden)}`,
  });
}
