import { escapeHtml } from "../../web/html-escape.js";
import { PAGE_SCRIPT_PATHS } from "../../web/page-scripts.js";

/** The SDK script every MFA page loads. */
export const MFA_SDK_SCRIPT = PAGE_SCRIPT_PATHS.sdk;

/** The page scripts of the page contract, one per interactive page. */
export const MFA_PAGE_SCRIPTS = {
  login: PAGE_SCRIPT_PATHS.loginPage,
  ottRequest: PAGE_SCRIPT_PATHS.ottRequestPage,
  ottVerify: PAGE_SCRIPT_PATHS.ottVerifyPage,
  passkey: PAGE_SCRIPT_PATHS.passkeyChallengePage,
} as const;

/** The header the SDK sends the CSRF token in, announced by meta `_csrf_header`. */
export const MFA_CSRF_HEADER = "X-CSRF-TOKEN";

/** A value of a `#platform-page-config` data attribute. */
export type PageConfigValue = string | number | boolean;

/** What every MFA page has around its body. */
export interface MfaPageShell {
  /** Document title and heading. */
  title: string;
  /** The CSRF token for the meta tags; undefined on a chain without CSRF protection. */
  csrfToken: string | undefined;
  /** The page's own script beside the SDK, if the contract names one. */
  pageScript?: string | undefined;
  /** `#platform-page-config` attributes, keyed by name without `data-` (`mfa-session-id`). */
  config: Readonly<Record<string, PageConfigValue | undefined>>;
  /** The page body after the heading; already escaped HTML. */
  body: string;
}

/**
 * The common document of the MFA pages: CSRF meta tags, the deferred SDK and page scripts (no inline
 * script, so `script-src 'self'` holds), `div#platform-page-config` and the page style. Every value
 * is escaped here; undefined config values are left out.
 */
export function renderMfaPageShell(shell: MfaPageShell): string {
  const csrf =
    shell.csrfToken === undefined
      ? ""
      : `<meta name="_csrf" content="${escapeHtml(shell.csrfToken)}">\n<meta name="_csrf_header" content="${MFA_CSRF_HEADER}">\n`;
  const scripts = [MFA_SDK_SCRIPT, ...(shell.pageScript === undefined ? [] : [shell.pageScript])]
    .map((src) => `<script src="${escapeHtml(src)}" defer></script>`)
    .join("\n");
  const data = Object.entries(shell.config)
    .filter((entry): entry is [string, PageConfigValue] => entry[1] !== undefined)
    .map(([name, value]) => `\n data-${name}="${escapeHtml(String(value))}"`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(shell.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${csrf}<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.3rem 0}form{margin:1rem 0}.error{color:#b00020}.link{display:inline-block;margin:.5rem 0}</style>
${scripts}
</head><body>
<div id="platform-page-config" hidden${data}></div>
<h1>${escapeHtml(shell.title)}</h1>
${shell.body}
</body></html>`;
}
