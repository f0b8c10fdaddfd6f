import { escapeHtml } from "../../web/html-escape.js";

/** The values of the page contract's hidden-inputs block. */
export interface HiddenInputs {
  /** The CSRF token; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The MFA session; undefined before primary authentication. */
  mfaSessionId?: string | undefined;
}

/**
 * The server-generated hidden-inputs block every MFA form carries: `_csrf` and `mfaSessionId`,
 * escaped, each left out when it has no value. Custom pages must keep it inside their forms.
 */
export function hiddenInputsHtml(inputs: HiddenInputs): string {
  const out: string[] = [];
  if (inputs.csrfToken !== undefined)
    out.push(`<input type="hidden" name="_csrf" value="${escapeHtml(inputs.csrfToken)}">`);
  if (inputs.mfaSessionId !== undefined)
    out.push(`<input type="hidden" name="mfaSessionId" value="${escapeHtml(inputs.mfaSessionId)}">`);
  return out.join("\n");
}
