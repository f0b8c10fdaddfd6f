import { escapeHtml } from "../../web/html-escape.js";

/** What the confirmation page shows; every string is escaped. */
export interface EmailChangePageModel {
  processingUrl: string;
  csrfMeta: string;
  csrfInput: string;
  /** The link's value, carried in a hidden field (opening the page never applies it). */
  link: string | undefined;
  outcome: "ask" | "invalid" | "done";
}

/** The page a confirmation link opens: one button that applies the change; no script. */
export function renderEmailChangePage(m: EmailChangePageModel): string {
  const body =
    m.outcome === "done"
      ? '<p role="status">Your e-mail address was changed. Links and codes now go to it.</p>'
      : m.outcome === "invalid" || m.link === undefined
        ? '<p role="alert" class="error">That link is invalid, has expired, was already used, or the address cannot be used. Ask for a new one from your account.</p>'
        : `<form id="emailChangeForm" method="post" action="${escapeHtml(m.processingUrl)}">
<input type="hidden" name="link" value="${escapeHtml(m.link)}">
${m.csrfInput}
<p>Use this address for your account from now on?</p>
<button id="emailChangeButton" type="submit">Confirm the new address</button>
</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Confirm your e-mail address</title>
${m.csrfMeta}
</head><body>
<h1>Confirm your e-mail address</h1>
${body}
</body></html>`;
}
