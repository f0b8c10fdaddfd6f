import { z } from "zod";
import { csrfToken } from "../identity/csrf/csrf-token.js";
import { PlatformError } from "../kernel/platform-error.js";
import type { HttpExchange } from "../web/http-exchange.js";

/** Longest id (resource or policy) the console looks up; anything longer is refused first. */
export const MAX_CONSOLE_ID_LENGTH = 128;
const CONSOLE_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CONSOLE_ID_LENGTH}}$`);

/** A resource or policy id as the stores write them (letters, digits, `-`, `_`). */
export const consoleId = z.string().regex(CONSOLE_ID, "must be letters, digits, '-' or '_'");

/** Throws VALIDATION_FAILED (400) unless `id` looks like a stored id. */
export function checkConsoleId(id: string): string {
  if (!CONSOLE_ID.test(id)) {
    throw invalid("id", `must be 1 to ${MAX_CONSOLE_ID_LENGTH} letters, digits, '-' or '_'`);
  }
  return id;
}

/**
 * A query as one object: each parameter at most once, empty values dropped (a GET form sends its
 * blank fields as `name=`), unknown parameters refused; then `schema` judges the rest.
 */
export function parseQuery<T extends z.ZodObject>(schema: T, query: URLSearchParams): z.infer<T> {
  const known = Object.keys(schema.shape);
  const raw: Record<string, string> = {};
  for (const key of new Set(query.keys())) {
    if (!known.includes(key)) throw invalid("query", `takes only ${known.join(", ")}`);
    const values = query.getAll(key);
    if (values.length > 1) throw invalid(key, "must be given at most once");
    if (values[0] !== "") raw[key] = values[0]!;
  }
  return parseWith(schema, raw);
}

/**
 * The fields of a console form post: an urlencoded body only, every field a known name (the
 * chain's CSRF field aside). Throws UNSUPPORTED_MEDIA_TYPE, MALFORMED_BODY or VALIDATION_FAILED.
 */
export async function readForm<T extends z.ZodObject>(
  exchange: HttpExchange,
  schema: T,
): Promise<z.infer<T>> {
  const fields = await exchange.fields(["form"]);
  const csrfField = csrfToken(exchange)?.parameterName ?? "_csrf";
  // fromEntries makes own properties: a `__proto__` field stays a field (and is refused as unknown).
  const raw = Object.fromEntries(
    Object.entries(fields).filter(([key]) => key !== csrfField && key !== "_csrf"),
  );
  return parseWith(schema, raw);
}

/** Parses `raw` with `schema`; the first issue becomes VALIDATION_FAILED. */
export function parseWith<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join(".") || "form";
  const message = issue?.code === "unrecognized_keys" ? "has a field the form does not take" : issue?.message;
  throw invalid(path.slice(0, 100), (message ?? "is invalid").slice(0, 300));
}

/** VALIDATION_FAILED about one field. */
export function invalid(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}

/** A whole number of at most nine digits within `min..max`, from a query or form string. */
export function wholeNumber(min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d{1,9}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
