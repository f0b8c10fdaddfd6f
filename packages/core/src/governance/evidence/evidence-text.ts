import { z } from "zod";
import { UNSAFE_MULTILINE_TEXT, UNSAFE_TEXT } from "../../kernel/unsafe-text.js";

/** One line of evidence text, 1 to `max` characters, no control or format character. */
export function evidenceLine(max: number): z.ZodString {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !UNSAFE_TEXT.test(s), "must not hold control or format characters");
}

/** Free evidence text, 1 to `max` characters; tab and line breaks allowed, no other control or format character. */
export function evidenceText(max: number): z.ZodString {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !UNSAFE_MULTILINE_TEXT.test(s), "must not hold control or format characters");
}

/** A lower-case hex SHA-256. */
export const sha256Field = z.string().regex(/^[0-9a-f]{64}$/, "must be a lower-case hex SHA-256");
