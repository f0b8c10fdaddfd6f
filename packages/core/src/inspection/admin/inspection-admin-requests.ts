import { z } from "zod";
import { invalid } from "../../policy-center/console-input.js";
import { wholeNumber } from "../../policy-center/console-input.js";
import { V20_DICTIONARY } from "../../prompts/layouts/v20/v20-dictionary.js";
import { CHECK_CODES, INSPECTION_VERDICTS } from "../inspection-result.js";
import type { InspectionResultCursor } from "../results/inspection-result-store.js";
import type { CapturePeriod } from "../service/reinspection-jobs.js";

const DAY = 86_400_000;
/** The default period of the overview: the last 7 days. */
export const DEFAULT_OVERVIEW_DAYS = 7;
/** The longest period the overview and a reinspection take. */
export const MAX_PERIOD_DAYS = 366;
/** Largest page of the packages listing. */
export const MAX_PACKAGE_PAGE = 100;
const DEFAULT_PACKAGE_PAGE = 25;
const LATEST_INSTANT = 8_640_000_000_000_000;
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const PACKAGE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** `Date.parse` of an ISO-8601 text, or NaN for a day the calendar does not have (it rolls 2026-02-30 over to March). */
function isoInstant(text: string): number {
  const [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return Number.NaN;
  return Date.parse(text);
}

/** An instant: an ISO-8601 date (UTC midnight) or date-time with a zone, or epoch milliseconds. */
const instant = z.union([z.string().max(40), z.number()]).transform((v, ctx) => {
  const ms =
    typeof v === "number" ? v : /^\d{1,16}$/.test(v) ? Number(v) : ISO.test(v) ? isoInstant(v) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > LATEST_INSTANT) {
    ctx.addIssue({
      code: "custom",
      message: "must be an ISO-8601 instant (2026-11-20T00:00:00Z) or epoch milliseconds",
    });
    return z.NEVER;
  }
  return ms;
});

// A dictionary block (`REQUEST`, `PAST RECORDS`, case-insensitive, `_` for the space) → the key prefix its findings carry.
const BLOCK_KEYS = new Map<string, string>([
  ...V20_DICTIONARY.blocks.map((b) => [b.name, b.entries[0]!.key.split(".")[0]!] as [string, string]),
  [V20_DICTIONARY.pastRecords.name, "past-record"],
]);
const ENTRY_KEYS = new Set(V20_DICTIONARY.blocks.flatMap((b) => b.entries.map((e) => e.key)));
const PAST_RECORD_ENTRY = /^past-record:[A-Za-z0-9._-]{1,64}$/;

const block = z
  .string()
  .max(32)
  .transform((v, ctx) => {
    const key = BLOCK_KEYS.get(v.toUpperCase().replace(/_/g, " "));
    if (key === undefined) {
      ctx.addIssue({
        code: "custom",
        message: `must be a dictionary block (${[...BLOCK_KEYS.keys()].join(", ")})`,
      });
      return z.NEVER;
    }
    return key;
  });
const entry = z
  .string()
  .max(100)
  .refine(
    (v) => ENTRY_KEYS.has(v) || PAST_RECORD_ENTRY.test(v),
    "must be a dictionary entry key (request.subject) or past-record:<id>",
  );

/** `GET …/overview?from&to`. */
export const OverviewQuery = z.strictObject({ from: instant.optional(), to: instant.optional() });

/** `GET …/packages`: filters, period, page. */
export const PackagesQuery = z.strictObject({
  verdict: z.enum(INSPECTION_VERDICTS).optional(),
  check: z.enum(CHECK_CODES).optional(),
  block: block.optional(),
  entry: entry.optional(),
  from: instant.optional(),
  to: instant.optional(),
  limit: wholeNumber(1, MAX_PACKAGE_PAGE).optional(),
  cursor: z.string().max(400).optional(),
});

/** `POST …/reinspections`: the capture period. */
export const ReinspectionBody = z.strictObject({ from: instant, to: instant });

/** The overview's period: `to` default now, `from` default 7 days before `to`; from < to, at most MAX_PERIOD_DAYS. */
export function overviewPeriod(
  q: { from?: number | undefined; to?: number | undefined },
  now: number,
): CapturePeriod {
  const to =
    q.to ?? (q.from === undefined ? now : Math.min(LATEST_INSTANT, q.from + DEFAULT_OVERVIEW_DAYS * DAY));
  const from = q.from ?? Math.max(0, to - DEFAULT_OVERVIEW_DAYS * DAY);
  return checkedPeriod(from, to);
}

/** A period as given: from < to, at most MAX_PERIOD_DAYS long. */
export function checkedPeriod(from: number, to: number): CapturePeriod {
  if (from >= to) throw invalid("from", "must be before to");
  if (to - from > MAX_PERIOD_DAYS * DAY)
    throw invalid("to", `must be at most ${MAX_PERIOD_DAYS} days after from`);
  return { from, to };
}

/** The store's key filter of a listing: the entry when given (it must lie in the block when both are), else the block. */
export function keyFilterOf(q: {
  block?: string | undefined;
  entry?: string | undefined;
}): string | undefined {
  if (
    q.entry !== undefined &&
    q.block !== undefined &&
    !q.entry.startsWith(`${q.block}.`) &&
    !q.entry.startsWith(`${q.block}:`)
  )
    throw invalid("entry", "must lie in the block");
  return q.entry ?? q.block;
}

/** The packages listing's page size. */
export const pageSizeOf = (limit: number | undefined): number => limit ?? DEFAULT_PACKAGE_PAGE;

/** A listing cursor as the wire carries it: base64url of `[capturedAt, packageId, inspectorVersion]`. */
export function encodeCursor(c: InspectionResultCursor): string {
  return Buffer.from(JSON.stringify([c.capturedAt, c.packageId, c.inspectorVersion]), "utf8").toString(
    "base64url",
  );
}

/** The cursor the wire carries, checked (VALIDATION_FAILED naming `cursor` when it is not one of ours). */
export function decodeCursor(raw: string): InspectionResultCursor {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error("not base64url");
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid("cursor", "is not a cursor this API gave");
  }
  const ok =
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    Number.isSafeInteger(parsed[0]) &&
    parsed[0] >= 0 &&
    typeof parsed[1] === "string" &&
    PACKAGE_ID.test(parsed[1]) &&
    typeof parsed[2] === "string" &&
    /^[a-z0-9./-]{1,64}$/.test(parsed[2]);
  if (!ok) throw invalid("cursor", "is not a cursor this API gave");
  const [capturedAt, packageId, inspectorVersion] = parsed as [number, string, string];
  return { capturedAt, packageId, inspectorVersion };
}

/** A package id from the path: 1 to 128 of letters, digits, `.`, `_`, `:`, `-` (VALIDATION_FAILED otherwise). */
export function checkPackageId(id: string): string {
  if (!PACKAGE_ID.test(id))
    throw invalid("packageId", "must be 1 to 128 letters, digits, '.', '_', ':' or '-'");
  return id;
}
