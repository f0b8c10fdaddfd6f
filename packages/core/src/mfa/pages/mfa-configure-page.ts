import { escapeHtml } from "../../web/html-escape.js";
import type { FactorType } from "../factor-type.js";
import { factorLabel } from "./mfa-page-parts.js";
import { renderMfaPageShell } from "./mfa-page-shell.js";

/** One factor as the configure page lists it. */
export interface MfaConfigureFactor {
  type: FactorType;
  /** Whether the user can use it now (a delivery address for OTT, a registered passkey). */
  enrolled: boolean;
  /** A short, already masked description (`a•••@example.com`, `2 passkeys`). */
  detail?: string | undefined;
}

/** What the MFA configure page shows. */
export interface MfaConfigurePageModel {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The signed-in user. */
  username: string;
  /** The flow's factors and whether this user has each. */
  factors: readonly MfaConfigureFactor[];
  /** The passkey management page (`/passkeys`) where a passkey is enrolled. */
  passkeyManagementUrl: string;
  /** Where "Done" goes. */
  successUrl: string;
  /** The family's labels by factor type (the built-in names otherwise). */
  labels?: Readonly<Record<FactorType, string>> | undefined;
}

/** The MFA configure page: which factors the user has, and a link to enroll a passkey. */
export function renderMfaConfigurePage(m: MfaConfigurePageModel): string {
  const items = m.factors
    .map((f) => {
      const state = f.enrolled ? "set up" : "not set up";
      const detail = f.detail === undefined ? "" : ` (${escapeHtml(f.detail)})`;
      return `<li id="factor-${f.type}" data-enrolled="${f.enrolled}">${escapeHtml(factorLabel(f.type, m.labels))}: ${state}${detail}</li>`;
    })
    .join("\n");
  return renderMfaPageShell({
    title: "Verification methods",
    csrfToken: m.csrfToken,
    config: { "passkey-management-url": m.passkeyManagementUrl },
    body: `<p id="mfaUser">Signed in as <strong>${escapeHtml(m.username)}</strong>.</p>
<ul id="mfaFactorList">
${items}
</ul>
<p><a id="enrollPasskeyLink" class="link" href="${escapeHtml(m.passkeyManagementUrl)}">Add or manage passkeys</a></p>
<p><a id="doneLink" class="link" href="${escapeHtml(m.successUrl)}">Done</a></p>`,
  });
}
