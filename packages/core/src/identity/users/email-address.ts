import { PlatformError } from "../../kernel/platform-error.js";

/** Longest e-mail address accepted (RFC 5321's 256-octet path less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const MAX_LABEL_LENGTH = 63;
/** Longest input looked at: bounds the trim before the real length is known. */
const MAX_RAW_LENGTH = 2 * MAX_EMAIL_LENGTH;

// RFC 5322 `atext` besides letters and digits: what a dot-atom local part may hold.
const LOCAL_SPECIALS = "!#$%&'*+-/=?^_`{|}~";

/**
 * Why `raw` cannot be an account's e-mail address, or undefined when it can. One linear pass per
 * part, no regular expression (nothing can backtrack on a hostile input): after trimming, at most 254
 * characters, one `@`; a dot-atom local part of 1 to 64 ASCII `atext` characters (no leading,
 * trailing or doubled dot; no quoted strings, comments or spaces); a domain of at least two
 * letter-digit-hyphen labels of 1 to 63 (none starting or ending with `-`, the last not all digits,
 * so no IP address). Non-ASCII is refused: an internationalised domain is given in its `xn--` form.
 * Every accepted address is printable ASCII without spaces, so it cannot carry a header or command.
 */
export function emailAddressProblem(raw: unknown): string | undefined {
  if (typeof raw !== "string") return "must be a string";
  if (raw.length > MAX_RAW_LENGTH) return `must be at most ${MAX_EMAIL_LENGTH} characters`;
  const address = raw.trim();
  if (address === "") return "must not be empty";
  if (address.length > MAX_EMAIL_LENGTH) return `must be at most ${MAX_EMAIL_LENGTH} characters`;
  const at = address.indexOf("@");
  if (at < 0 || at !== address.lastIndexOf("@")) return "must hold exactly one @";
  return localPartProblem(address.slice(0, at)) ?? domainProblem(address.slice(at + 1));
}

function localPartProblem(local: string): string | undefined {
  if (local.length === 0 || local.length > MAX_LOCAL_LENGTH) {
    return `must have 1 to ${MAX_LOCAL_LENGTH} characters before the @`;
  }
  for (let i = 0; i < local.length; i++) {
    const c = local[i]!;
    if (c === ".") {
      if (i === 0 || i === local.length - 1 || local[i - 1] === ".") {
        return "must not start, end or double a dot before the @";
      }
    } else if (!isAlphanumeric(c) && !LOCAL_SPECIALS.includes(c)) {
      return "must use only letters, digits, dots and !#$%&'*+-/=?^_`{|}~ before the @";
    }
  }
  return undefined;
}

function domainProblem(domain: string): string | undefined {
  const labels = domain.split(".");
  if (labels.length < 2) return "must have a domain with a dot after the @";
  for (const label of labels) {
    if (label.length === 0 || label.length > MAX_LABEL_LENGTH) {
      return `must have domain labels of 1 to ${MAX_LABEL_LENGTH} characters`;
    }
    if (label.startsWith("-") || label.endsWith("-")) return "must not start or end a domain label with -";
    for (const c of label) {
      if (!isAlphanumeric(c) && c !== "-") return "must use only letters, digits and - in the domain";
    }
  }
  if ([...labels[labels.length - 1]!].every(isDigit)) return "must end in a name, not a number";
  return undefined;
}

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

function isAlphanumeric(c: string): boolean {
  return isDigit(c) || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
}

/**
 * The address an account stores for `raw`: trimmed, the domain lower-cased (domains are
 * case-insensitive; the local part is kept as given, since RFC 5321 lets a server tell its case apart).
 * Throws VALIDATION_FAILED (path `email`) when `emailAddressProblem` finds one. Repositories keep
 * addresses unique by `emailAddressKey`.
 */
export function checkEmailAddress(raw: unknown): string {
  const problem = emailAddressProblem(raw);
  if (problem !== undefined) {
    throw new PlatformError("VALIDATION_FAILED", `The request is invalid: email ${problem}`, {
      details: { issues: [{ path: "email", message: problem }] },
    });
  }
  const address = (raw as string).trim();
  const at = address.indexOf("@");
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
}

/**
 * What an address is kept unique by: the whole address lower-cased (locale-independent
 * `toLowerCase`), so `Alice@example.com` and `alice@example.com` cannot belong to two accounts. Every
 * UserRepository computes it the same way (MongoDB stores it as `emailKey`).
 */
export function emailAddressKey(address: string): string {
  return address.toLowerCase();
}
