import type { CliIo } from "./cli-command.js";

// Whole escape sequences first, so what they would have hidden or drawn does not show as debris:
// CSI (`ESC [` or 0x9B, parameters, intermediates, a final byte), the string controls OSC, DCS,
// SOS, PM and APC (window titles, hyperlinks, clipboard writes) up to their terminator (BEL or ST,
// else the end of the text, as a terminal would swallow it), and the short `ESC <final>` forms.
const ESCAPE_SEQUENCE = new RegExp(
  [
    "(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]",
    "(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[\\s\\S]*?(?:\\u0007|\\u001b\\\\|\\u009c|$)",
    "\\u001b[ -/]*[0-~]",
  ].join("|"),
  "g",
);

// Then every single control that is left: C0 but tab and newline, DEL, C1, the bidi embeddings,
// overrides and isolates (U+202A-E, U+2066-9: "Trojan Source"), the bidi marks and the line and
// paragraph separators. Nothing in this class survives, whatever the sequences above missed.
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what is removed.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every terminal control removed (escape sequences whole), keeping only newlines and
 * tabs: what the `platform` command may write to a terminal. Nothing it returns can move the
 * cursor, clear the screen, set a title, hide text or reorder a line.
 */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
}

/**
 * One line of text a server sent (a message, a username, an id): `terminalSafe`, and its newlines
 * and tabs turned into spaces, so a server can never start a line of its own (a forged prompt).
 */
export function serverText(text: string): string {
  return terminalSafe(text).replace(/[\n\t]/g, " ");
}

/** `io` whose output (results, progress, prompts) passes through `terminalSafe`. */
export function terminalSafeIo(io: CliIo): CliIo {
  return {
    out: (text) => io.out(terminalSafe(text)),
    err: (text) => io.err(terminalSafe(text)),
    readLine: (prompt, options) => io.readLine(terminalSafe(prompt), options),
    env: io.env,
    stopSignal: () => io.stopSignal(),
  };
}
