import { escapeHtml } from "../../web/html-escape.js";
import type { AccountOverview } from "./account-overview.js";

/** What the account page shows; every string is escaped when rendered. */
export interface AccountPageModel {
  overview: AccountOverview;
  csrfMeta: string;
  csrfInput: string;
  /** Where the forms post: `<base>/end` (one session, field `handle`) and `<base>/end-others`. */
  sessionsUrl: string;
  /** What the last action did (a redirect's query), shown once. */
  notice: "ended" | "ended-others" | "not-found" | "current" | undefined;
}

const NOTICES = {
  ended: ["status", "The session was ended."],
  "ended-others": ["status", "Every other session was ended."],
  "not-found": ["alert", "That session had already ended."],
  current: ["alert", "That is the session you are using: sign out to end it."],
} as const;

/** The built-in `/account` page: the account's security as lists, and forms to end sessions; no script. */
export function renderAccountPage(m: AccountPageModel): string {
  const o = m.overview;
  const notice = m.notice ? NOTICES[m.notice] : undefined;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Your account</title>
${m.csrfMeta}
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #ddd}form{display:inline;margin:0}.error{color:#b00020}</style>
</head><body>
<h1>Your account</h1>
${notice ? `<p role="${notice[0]}"${notice[0] === "alert" ? ' class="error"' : ""}>${notice[1]}</p>` : ""}
<p>Signed in as <strong id="accountUsername">${escapeHtml(o.username)}</strong>${
    o.email === null ? "" : ` (<span id="accountEmail">${escapeHtml(o.email)}</span>)`
  }.</p>
<h2>Second factors</h2>
${factorsTable(o)}
<h2>Passkeys</h2>
${passkeyList(o)}
<h2>Open sessions</h2>
${sessionsTable(m)}
<h2>Devices you signed in on</h2>
<p id="accountDevices">${o.devices.length} known device(s)${
    o.devices.some((d) => d.current) ? ", this one among them" : ""
  }.</p>
<p><a href="/">Home</a></p>
</body></html>`;
}

function factorsTable(o: AccountOverview): string {
  const rows = o.factors.map((f) => {
    const state = f.enrolled ? "set up" : "not set up";
    const left = f.remaining === undefined ? "" : ` (${f.remaining} left)`;
    return `<tr data-factor="${escapeHtml(f.type)}"><td>${escapeHtml(f.label)}</td><td>${state}${left}</td></tr>`;
  });
  return `<table id="accountFactors"><tbody>${rows.join("\n")}</tbody></table>`;
}

function passkeyList(o: AccountOverview): string {
  if (o.passkeys.length === 0) return '<p id="accountPasskeys">No passkeys.</p>';
  const items = o.passkeys.map((p) => `<li>${escapeHtml(p.label)}</li>`);
  return `<ul id="accountPasskeys">${items.join("")}</ul>`;
}

function sessionsTable(m: AccountPageModel): string {
  const rows = m.overview.sessions.map((s) => {
    const action = s.current
      ? "this session"
      : `<form method="post" action="${escapeHtml(`${m.sessionsUrl}/end`)}">
<input type="hidden" name="handle" value="${escapeHtml(s.handle)}">${m.csrfInput}
<button type="submit">End</button></form>`;
    return `<tr data-session="${escapeHtml(s.handle)}"><td>since ${escapeHtml(s.createdAt)}</td><td>last seen ${escapeHtml(s.lastAccessedAt)}</td><td>${action}</td></tr>`;
  });
  const others = m.overview.sessions.some((s) => !s.current)
    ? `<form id="endOthersForm" method="post" action="${escapeHtml(`${m.sessionsUrl}/end-others`)}">${m.csrfInput}
<button id="endOthersButton" type="submit">End every other session</button></form>`
    : "";
  return `<table id="accountSessions"><tbody>${rows.join("\n")}</tbody></table>\n${others}`;
}
