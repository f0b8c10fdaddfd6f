/** The wall-clock fields of one minute in one time zone. */
export interface LocalTime {
  /** Minutes since the epoch (UTC) this describes. */
  readonly epochMinute: number;
  /** 0..1439: hours * 60 + minutes on the local clock. */
  readonly minuteOfDay: number;
  /** ISO day of week: 1 = Monday … 7 = Sunday. */
  readonly dayOfWeek: number;
  /** The local date as the number yyyymmdd (2026-03-01 → 20260301), comparable with < and >. */
  readonly date: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
/** Zones come from configuration, so a handful at most; the bound only stops a misuse from growing. */
const MAX_ZONES = 64;

const formats = new Map<string, Intl.DateTimeFormat>();
const latest = new Map<string, LocalTime>();

/**
 * The local wall-clock time of `now` (epoch ms) in an IANA `timeZone`, at minute resolution. Intl is
 * slow, so each zone keeps its DateTimeFormat and the fields of the last minute asked for: within a
 * minute this is one Map lookup and no allocation. An unknown zone throws a RangeError (the PDP denies).
 * Zones whose offset has seconds (historical only) are resolved at the start of the UTC minute.
 */
export function localTime(now: number, timeZone: string): LocalTime {
  const epochMinute = Math.floor(now / 60_000);
  const cached = latest.get(timeZone);
  if (cached !== undefined && cached.epochMinute === epochMinute) return cached;
  const fields = computeLocalTime(epochMinute, formatFor(timeZone));
  latest.set(timeZone, fields);
  return fields;
}

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    if (formats.size >= MAX_ZONES) {
      formats.clear();
      latest.clear();
    }
    formats.set(timeZone, format);
  }
  return format;
}

function computeLocalTime(epochMinute: number, format: Intl.DateTimeFormat): LocalTime {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let dayOfWeek = 0;
  for (const part of format.formatToParts(epochMinute * 60_000)) {
    if (part.type === "year") year = Number(part.value);
    else if (part.type === "month") month = Number(part.value);
    else if (part.type === "day") day = Number(part.value);
    else if (part.type === "hour") hour = Number(part.value) % 24;
    else if (part.type === "minute") minute = Number(part.value);
    else if (part.type === "weekday") dayOfWeek = WEEKDAYS[part.value] ?? 0;
  }
  return { epochMinute, minuteOfDay: hour * 60 + minute, dayOfWeek, date: year * 10_000 + month * 100 + day };
}
