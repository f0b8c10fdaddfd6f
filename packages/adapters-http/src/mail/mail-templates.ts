import type { OneTimeTokenMessage } from "@keyward/core/ports";
import type { InjectionToken } from "tsyringe";

/** One message as mailed: a subject (one line) and the same content as plain text and as HTML. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/**
 * Renders the mail of a one-time token by its `channel`: `email` (a magic link), `mfa-code` (an MFA
 * code and the page to type it into), `password-reset` (a reset link an administrator sent), `password-forgot` (a reset link the user asked
 * for), `account-notice` (a change to the account's security: the
 * message's `notice` sentence and a link to the account page). A host replaces the templates
 * by overriding this port (`PlatformOptions.overrides`), and may wrap `defaultMailTemplates` to change
 * one channel only. Whatever it returns, the SMTP delivery refuses a subject with a line break.
 */
export interface MailTemplates {
  render(message: OneTimeTokenMessage): MailContent;
}

/** DI token of the MailTemplates port. */
export const MailTemplates: InjectionToken<MailTemplates> = Symbol.for("platform.mail.MailTemplates");

interface Wording {
  subject: string;
  /** What the message is for, one sentence before the link. */
  lead: string;
  /** Shown as the link's text in HTML. */
  action: string;
  /** The closing advice. */
  note: string;
}

const WORDING: Record<string, Wording> = {
  email: {
    subject: "Your sign-in link",
    lead: "Use this link to sign in:",
    action: "Sign in",
    note: "The link works once and expires soon. If you did not ask for it, ignore this message.",
  },
  "mfa-code": {
    subject: "Your verification code",
    lead: "Enter the code above on the verification page:",
    action: "Open the verification page",
    note: "The code works once and expires soon. If you are not signing in, change your password.",
  },
  "password-reset": {
    subject: "Reset your password",
    lead: "An administrator sent you this link to set a new password:",
    action: "Set a new password",
    note: "The link works once and expires soon. If you did not expect it, contact your administrator.",
  },
  "password-forgot": {
    subject: "Reset your password",
    lead: "Someone asked to reset the password of your account. Use this link to set a new one:",
    action: "Set a new password",
    note: "The link works once and expires soon. If you did not ask for it, ignore this message: your password stays.",
  },
  "email-verify": {
    subject: "Confirm your new e-mail address",
    lead: "Someone asked to use this address for their account. Use this link to confirm it:",
    action: "Confirm the address",
    note: "The link works once and expires in 30 minutes. If you did not ask for it, ignore this message.",
  },
  "account-notice": {
    subject: "A change to your account's security",
    lead: "There was a change to your account's security.",
    action: "Review your account",
    note: "If this was not you, change your password and contact your administrator.",
  },
};

const OTHER: Wording = {
  subject: "Your one-time link",
  lead: "Use this link:",
  action: "Continue",
  note: "The link works once and expires soon. If you did not ask for it, ignore this message.",
};

/**
 * The built-in templates. Every value is HTML-escaped in the HTML part (`escapeHtml`), the link is
 * made a hyperlink only when it is http(s), and only an `mfa-code` message carries its token in the
 * text (the other channels' tokens travel inside their link).
 */
export const defaultMailTemplates: MailTemplates = {
  render(message) {
    const base = WORDING[message.channel] ?? OTHER;
    // A notice's sentence says what happened; it is plain text and escaped like every value.
    const wording = message.notice === undefined ? base : { ...base, lead: message.notice };
    const code = message.channel === "mfa-code" ? message.token : undefined;
    const text = [
      `Hello ${message.username},`,
      "",
      ...(code === undefined ? [] : [`Your verification code is ${code}`, ""]),
      wording.lead,
      message.link,
      "",
      wording.note,
      "",
    ].join("\n");
    const link = escapeHtml(message.link);
    const anchor = isWebLink(message.link) ? `<a href="${link}">${escapeHtml(wording.action)}</a>` : link;
    const html = [
      '<!doctype html><html><body style="font-family: sans-serif">',
      `<p>Hello ${escapeHtml(message.username)},</p>`,
      ...(code === undefined
        ? []
        : [`<p>Your verification code is <strong>${escapeHtml(code)}</strong></p>`]),
      `<p>${escapeHtml(wording.lead)}</p>`,
      `<p>${anchor}</p>`,
      `<p>Or copy this address into your browser: ${link}</p>`,
      `<p>${escapeHtml(wording.note)}</p>`,
      "</body></html>",
    ].join("\n");
    return { subject: wording.subject, text, html };
  },
};

/** `text` safe inside HTML text and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  let out = "";
  for (const c of text) {
    if (c === "&") out += "&amp;";
    else if (c === "<") out += "&lt;";
    else if (c === ">") out += "&gt;";
    else if (c === '"') out += "&quot;";
    else if (c === "'") out += "&#39;";
    else out += c;
  }
  return out;
}

function isWebLink(link: string): boolean {
  try {
    const url = new URL(link);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
