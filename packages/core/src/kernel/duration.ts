const SHORT = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/i;
const ISO =
  /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Parses a duration into milliseconds: ISO-8601 (`PT30S`, `P1DT2H`, `P2W`), a short form (`500ms`,
 * `30s`, `15m`, `2h`, `90d`, `1w`) or a bare non-negative integer of milliseconds. Returns undefined
 * when the text is none of these (months and years are refused: their length is ambiguous).
 */
export function parseDuration(text: string | number): number | undefined {
  if (typeof text === "number") return Number.isFinite(text) && text >= 0 ? Math.round(text) : undefined;
  const s = text.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const short = SHORT.exec(s);
  if (short) return Math.round(Number(short[1]) * UNIT_MS[short[2]!.toLowerCase()]!);
  const iso = ISO.exec(s);
  if (iso && s.length > 1 && !/T$/i.test(s)) {
    const [, w, d, h, m, sec] = iso;
    const ms =
      Number(w ?? 0) * UNIT_MS.w! +
      Number(d ?? 0) * UNIT_MS.d! +
      Number(h ?? 0) * UNIT_MS.h! +
      Number(m ?? 0) * UNIT_MS.m! +
      Number(sec ?? 0) * UNIT_MS.s!;
    return Math.round(ms);
  }
  return undefined;
}

const SIZE = /^(\d+)\s*(b|kb|kib|mb|mib)?$/i;
const SIZE_UNIT: Record<string, number> = { b: 1, kb: 1000, kib: 1024, mb: 1_000_000, mib: 1_048_576 };

/** Parses a byte size: an integer of bytes or `64kb`, `64KiB`, `1mb`, `1MiB`. Undefined when invalid. */
export function parseByteSize(text: string | number): number | undefined {
  if (typeof text === "number") return Number.isInteger(text) && text >= 0 ? text : undefined;
  const m = SIZE.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * SIZE_UNIT[(m[2] ?? "b").toLowerCase()]!;
}
