import type { ExpressionEvaluator } from "./compiled-expression.js";
import { quoteLiteral } from "./expression-error.js";
import { type FunctionDefinition, type ParamSpec, stringArg, stringArgs } from "./function-definition.js";
import { ipRangeContains, parseIpRange } from "../../web/ip-range.js";
import { localTime } from "./local-time.js";

const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const DAYS: Readonly<Record<string, number>> = {
  MONDAY: 1,
  TUESDAY: 2,
  WEDNESDAY: 3,
  THURSDAY: 4,
  FRIDAY: 5,
  SATURDAY: 6,
  SUNDAY: 7,
  MON: 1,
  TUE: 2,
  WED: 3,
  THU: 4,
  FRI: 5,
  SAT: 6,
  SUN: 7,
};

const CIDR: ParamSpec = {
  kind: "string",
  check: (value) => {
    const range = parseIpRange(value);
    return typeof range === "string" ? `invalid address or CIDR ${quoteLiteral(value)}: ${range}` : undefined;
  },
};
const TIME_OF_DAY: ParamSpec = {
  kind: "string",
  check: (value) =>
    TIME.test(value) ? undefined : `invalid time ${quoteLiteral(value)}: expected HH:MM, 00:00..23:59`,
};
const DAY: ParamSpec = {
  kind: "string",
  check: (value) =>
    Object.hasOwn(DAYS, value.toUpperCase())
      ? undefined
      : `invalid day ${quoteLiteral(value)}: expected MONDAY or MON …`,
};
const CALENDAR_DATE: ParamSpec = {
  kind: "string",
  check: (value) =>
    dateNumber(value) > 0 ? undefined : `invalid date ${quoteLiteral(value)}: expected YYYY-MM-DD`,
};

/** Minutes since midnight of a valid `HH:MM`. */
function minuteOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** yyyymmdd of a real calendar date, or 0. */
function dateNumber(text: string): number {
  const match = DATE.exec(text);
  if (match === null) return 0;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? year * 10_000 + month * 100 + day : 0;
}

/** Local time `start <= t < end`; when `end < start` the window wraps past midnight. */
function timeBetween(start: number, end: number): ExpressionEvaluator {
  if (start < end) {
    return (ctx) => {
      const minute = localTime(ctx.now, ctx.timeZone).minuteOfDay;
      return minute >= start && minute < end;
    };
  }
  return (ctx) => {
    const minute = localTime(ctx.now, ctx.timeZone).minuteOfDay;
    return minute >= start || minute < end;
  };
}

function dayOfWeekIn(days: readonly string[]): ExpressionEvaluator {
  let mask = 0;
  for (const day of days) mask |= 1 << (DAYS[day.toUpperCase()] ?? 0);
  return (ctx) => (mask & (1 << localTime(ctx.now, ctx.timeZone).dayOfWeek)) !== 0;
}

function dateBetween(first: number, last: number): ExpressionEvaluator {
  return (ctx) => {
    const date = localTime(ctx.now, ctx.timeZone).date;
    return date >= first && date <= last;
  };
}

/**
 * Request-environment functions: the caller's address and the local time in `ctx.timeZone`.
 * `hasIpAddress('10.0.0.0/8')` takes an address or CIDR, IPv4 or IPv6 (see ip-range.ts).
 * `timeBetween('HH:MM', 'HH:MM')`: start inclusive, end exclusive, wrapping past midnight when end < start;
 * equal times are refused (an empty window is surely a mistake). `dayOfWeekIn('MONDAY', 'TUE', …)`: full or
 * three-letter English names, any case. `dateBetween('YYYY-MM-DD', 'YYYY-MM-DD')`: both days inclusive.
 */
export const ENVIRONMENT_FUNCTIONS: readonly FunctionDefinition[] = [
  {
    receiver: undefined,
    name: "hasIpAddress",
    params: [CIDR],
    build: (args) => {
      const range = parseIpRange(stringArg(args, 0));
      if (typeof range === "string") throw new Error(range); // unreachable: checked by the parser
      return (ctx) => ipRangeContains(range, ctx.remoteAddress);
    },
  },
  {
    receiver: undefined,
    name: "timeBetween",
    params: [TIME_OF_DAY, TIME_OF_DAY],
    check: (args) =>
      stringArg(args, 0) === stringArg(args, 1)
        ? { index: 1, reason: "end time equals start time: the window would be empty" }
        : undefined,
    build: (args) => timeBetween(minuteOf(stringArg(args, 0)), minuteOf(stringArg(args, 1))),
  },
  {
    receiver: undefined,
    name: "dayOfWeekIn",
    params: [],
    rest: DAY,
    build: (args) => dayOfWeekIn(stringArgs(args)),
  },
  {
    receiver: undefined,
    name: "dateBetween",
    params: [CALENDAR_DATE, CALENDAR_DATE],
    check: (args) =>
      dateNumber(stringArg(args, 1)) < dateNumber(stringArg(args, 0))
        ? { index: 1, reason: "end date is before start date" }
        : undefined,
    build: (args) => dateBetween(dateNumber(stringArg(args, 0)), dateNumber(stringArg(args, 1))),
  },
];
