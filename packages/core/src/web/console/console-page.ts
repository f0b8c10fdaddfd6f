import type { InjectionToken } from "tsyringe";
import { escapeHtml } from "../html-escape.js";
import { PAGE_SCRIPTS_PREFIX } from "../page-scripts.js";

/**
 * One entry of the administrators' console navigation (Policy Center, and later releases and the
 * prompt inspector). A family: a plugin adds one with `ctx.registerMember(ConsoleSection, { useValue })`;
 * the shell lists them by `order`. Sections under `/admin/...` and `/platform/admin/...` share one
 * shell and one navigation.
 */
export interface ConsoleSection {
  /** Stable id, used to mark the active entry (`policy-center`). */
  readonly id: string;
  /** Text of the navigation link. */
  readonly label: string;
  /** Where the link points: a local absolute path (`/admin/policy-center`). */
  readonly href: string;
  /** Position in the navigation, lowest first. */
  readonly order: number;
}

/** DI token of the ConsoleSection family. */
export const ConsoleSection: InjectionToken<ConsoleSection> = Symbol.for("platform.ConsoleSection");

/** The console's stylesheet, served with the page scripts (no inline style: the CSP holds). */
export const CONSOLE_STYLESHEET = `${PAGE_SCRIPTS_PREFIX}/platform-console.css`;

/** A notice shown above the page body (after a form post redirected back). */
export interface ConsoleNotice {
  readonly kind: "ok" | "error";
  /** Plain text; escaped by the shell. */
  readonly text: string;
}

/** What one console page hands the shell. */
export interface ConsolePage {
  /** Document title and heading (plain text). */
  readonly title: string;
  /** The navigation, already read from the ConsoleSection family. */
  readonly sections: readonly ConsoleSection[];
  /** Id of the active section. */
  readonly active?: string | undefined;
  /** CSRF token for the meta tags (scripts send it as `X-CSRF-TOKEN`); undefined without CSRF. */
  readonly csrfToken: string | undefined;
  /** Shown above the body. */
  readonly notice?: ConsoleNotice | undefined;
  /** The page body: HTML the page built with {@link escapeHtml} around every value. */
  readonly body: string;
  /** External scripts the page loads (local paths), deferred; never inline script. */
  readonly scripts?: readonly string[] | undefined;
}

/**
 * The console's document: CSRF meta tags, the stylesheet, deferred external scripts, the
 * navigation, a notice and the body. No inline script or style, so the platform's CSP holds
 * unchanged. Every value but `body` is escaped here.
 */
export function renderConsolePage(page: ConsolePage): string {
  const csrf =
    page.csrfToken === undefined
      ? ""
      : `<meta name="_csrf" content="${escapeHtml(page.csrfToken)}">\n<meta name="_csrf_header" content="X-CSRF-TOKEN">\n`;
  const scripts = (page.scripts ?? [])
    .map((src) => `<script src="${escapeHtml(src)}" defer></script>\n`)
    .join("");
  const nav = [...page.sections]
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))
    .map((s) => {
      const current = s.id === page.active ? ' aria-current="page"' : "";
      return `<li><a href="${escapeHtml(s.href)}"${current}>${escapeHtml(s.label)}</a></li>`;
    })
    .join("");
  const notice =
    page.notice === undefined
      ? ""
      : `<p class="notice ${page.notice.kind}" role="${page.notice.kind === "error" ? "alert" : "status"}">${escapeHtml(page.notice.text)}</p>\n`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${csrf}<link rel="stylesheet" href="${escapeHtml(CONSOLE_STYLESHEET)}">
${scripts}</head><body class="console">
<nav class="console-nav" aria-label="Console"><ul>${nav}</ul></nav>
<main>
<h1>${escapeHtml(page.title)}</h1>
${notice}${page.body}
</main>
</body></html>`;
}
