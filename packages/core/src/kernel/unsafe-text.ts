/**
 * Characters no single-line text of ours may hold (names, expressions, reasons shown in consoles and
 * audit output): control characters (C0, DEL, C1), format characters (`\p{Cf}`: zero-width spaces and
 * joiners, bidirectional overrides and isolates) and the line and paragraph separators. A format
 * character makes text read differently from what it is: `hasRole('ADMIN\u200b')` looks like a check
 * of ADMIN and is a check of another role; U+202E reorders what a reviewer sees.
 */
export const UNSAFE_TEXT = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** As {@link UNSAFE_TEXT}, for multi-line text (descriptions, expressions): tab, LF and CR allowed. */
export const UNSAFE_MULTILINE_TEXT = /(?![\t\n\r])[\p{Cc}\p{Cf}\u2028\u2029]/u;
