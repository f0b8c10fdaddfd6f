/** Longest address the SMTP delivery sends to or from. */
const MAX_ADDRESS_LENGTH = 254;

/**
 * Why `address` cannot go into an SMTP envelope and a To/From header, or undefined when it can: the
 * transport's own guard, whatever a host's repository or template handed over. One `@` with text on
 * both sides, at most 254 characters, only printable ASCII and none of what would make it two
 * addresses, a display name, a quoted string or a comment (space, `,`, `;`, `<`, `>`, `"`, `(`, `)`,
 * `[`, `]`, `\`, `:`): so never a CR or LF (no header or command injection), never a second recipient.
 * A username that is no address (an account without one) is refused here, so nothing is sent.
 */
export function mailboxAddressProblem(address: string): string | undefined {
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH) {
    return `must be 1 to ${MAX_ADDRESS_LENGTH} characters`;
  }
  for (const c of address) {
    const code = c.charCodeAt(0);
    if (code <= 0x20 || code >= 0x7f || ' ,;<>"()[]\\:'.includes(c)) {
      return "must be printable ASCII without spaces, separators or quotes";
    }
  }
  const at = address.indexOf("@");
  if (at <= 0 || at !== address.lastIndexOf("@") || at === address.length - 1) {
    return "must be one address (local@domain)";
  }
  return undefined;
}

/** True when `text` holds a CR, an LF or another control character (what may not go into a header). */
export function hasControlCharacter(text: string): boolean {
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}
