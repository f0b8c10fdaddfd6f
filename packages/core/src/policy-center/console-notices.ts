import type { ConsoleNotice } from "../web/console/console-page.js";

/**
 * The notices a form post's redirect may ask the page to show, by code. The redirect carries the
 * code (`?notice=defined`), never text: a link cannot make the console say anything else.
 */
export const CONSOLE_NOTICES = {
  defined: "The resource is defined as a permission.",
  excluded: "The resource is excluded from authorization management.",
  restored: "The resource is restored; it needs a definition again.",
  saved: "The policy is saved.",
  activated: "The policy is active.",
  deactivated: "The policy is inactive.",
  approved: "The policy is approved.",
  rejected: "The policy is rejected and inactive.",
  deleted: "The policy is deleted.",
  imported: "The importable static rules are imported as policies.",
  "nothing-imported": "No static rule was left to import.",
} as const;

/** The code of one notice. */
export type ConsoleNoticeCode = keyof typeof CONSOLE_NOTICES;

/** Every notice code, for the page's query schema. */
export const CONSOLE_NOTICE_CODES = Object.keys(CONSOLE_NOTICES) as [
  ConsoleNoticeCode,
  ...ConsoleNoticeCode[],
];

/** The success notice of a code, if one was asked for. */
export function noticeOf(code: ConsoleNoticeCode | undefined): ConsoleNotice | undefined {
  return code === undefined ? undefined : { kind: "ok", text: CONSOLE_NOTICES[code] };
}

/** `href` with `notice=<code>` added to its query. */
export function withNotice(href: string, code: ConsoleNoticeCode): string {
  return `${href}${href.includes("?") ? "&" : "?"}notice=${code}`;
}
