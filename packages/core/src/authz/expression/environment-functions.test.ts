import { describe, expect, it } from "vitest";
import { compileExpression } from "./expression-compiler.js";
import { testContext } from "./test-context.js";

/** A context at a UTC wall-clock instant, evaluated in `timeZone`. */
const at = (iso: string, timeZone = "UTC") => testContext({ now: Date.parse(iso), timeZone });
const decide = (source: string, ctx = testContext()) => compileExpression(source).evaluate(ctx);

describe("hasIpAddress", () => {
  it.each([
    ["hasIpAddress('10.0.0.0/8')", "10.0.0.1", true],
    ["hasIpAddress('10.0.0.0/8')", "192.168.0.1", false],
    ["hasIpAddress('10.0.0.0/8')", "::ffff:10.0.0.1", true],
    ["hasIpAddress('10.0.0.1')", "10.0.0.1", true],
    ["hasIpAddress('10.0.0.1')", "10.0.0.2", false],
    ["hasIpAddress('::1')", "::1", true],
    ["hasIpAddress('2001:db8::/32')", "2001:db8::5", true],
    ["hasIpAddress('2001:db8::/32')", "10.0.0.1", false],
    ["hasIpAddress('10.0.0.0/8') or hasIpAddress('::1')", "::1", true],
    ["hasIpAddress('10.0.0.0/8')", "not an address", false],
  ])("%s from %s → %s", (source, remoteAddress, expected) => {
    expect(decide(source, testContext({ remoteAddress }))).toBe(expected);
  });

  it.each([
    ["hasIpAddress('10.0.0.0/33')", 13, "invalid prefix length: expected 0..32"],
    ["hasIpAddress('::/129')", 13, "invalid prefix length: expected 0..128"],
    ["hasIpAddress('10.0.0.0/')", 13, "invalid prefix length"],
    ["hasIpAddress('300.0.0.0/8')", 13, "invalid IPv4 address"],
    ["hasIpAddress('1::2::3')", 13, "invalid IPv6 address"],
    ["permitAll and hasIpAddress('')", 27, "invalid IPv4 address"],
  ])("%s is a compile error at %i", (source, position, reason) => {
    expect(() => compileExpression(source)).toThrow(`Invalid policy expression at ${position}:`);
    expect(() => compileExpression(source)).toThrow(reason);
  });
});

describe("timeBetween", () => {
  it.each([
    ["09:00", "17:30", "2026-03-04T08:59:59Z", false],
    ["09:00", "17:30", "2026-03-04T09:00:00Z", true],
    ["09:00", "17:30", "2026-03-04T12:00:00Z", true],
    ["09:00", "17:30", "2026-03-04T17:29:59Z", true],
    ["09:00", "17:30", "2026-03-04T17:30:00Z", false],
    // across midnight
    ["22:00", "06:00", "2026-03-04T21:59:00Z", false],
    ["22:00", "06:00", "2026-03-04T22:00:00Z", true],
    ["22:00", "06:00", "2026-03-04T23:59:59Z", true],
    ["22:00", "06:00", "2026-03-05T00:00:00Z", true],
    ["22:00", "06:00", "2026-03-05T05:59:00Z", true],
    ["22:00", "06:00", "2026-03-05T06:00:00Z", false],
    ["22:00", "06:00", "2026-03-05T12:00:00Z", false],
    ["00:00", "23:59", "2026-03-05T23:59:00Z", false],
    ["00:00", "23:59", "2026-03-05T00:00:00Z", true],
    ["23:59", "00:00", "2026-03-05T23:59:30Z", true],
    ["23:59", "00:00", "2026-03-05T00:00:00Z", false],
  ])("timeBetween('%s', '%s') at %s (UTC) → %s", (start, end, iso, expected) => {
    expect(decide(`timeBetween('${start}', '${end}')`, at(iso))).toBe(expected);
  });

  it("uses the local time of the context's zone", () => {
    const morning = "timeBetween('09:00', '10:00')";
    // 14:00Z on 2026-03-04: 09:00 in New York (EST), 15:00 in Paris (CET), 19:30 in Kolkata.
    expect(decide(morning, at("2026-03-04T14:00:00Z", "America/New_York"))).toBe(true);
    expect(decide(morning, at("2026-03-04T14:00:00Z", "Europe/Paris"))).toBe(false);
    expect(decide(morning, at("2026-03-04T14:00:00Z", "UTC"))).toBe(false);
    expect(decide(morning, at("2026-03-04T08:00:00Z", "Europe/Paris"))).toBe(true);
    expect(decide(morning, at("2026-03-04T03:30:00Z", "Asia/Kolkata"))).toBe(true);
    expect(decide(morning, at("2026-03-04T03:29:00Z", "Asia/Kolkata"))).toBe(false);
    // After the US switch to daylight time (2026-03-08), 14:00Z is 10:00 in New York.
    expect(decide(morning, at("2026-03-09T14:00:00Z", "America/New_York"))).toBe(false);
    expect(decide(morning, at("2026-03-09T13:00:00Z", "America/New_York"))).toBe(true);
  });

  it("wraps past midnight in a zone ahead of UTC", () => {
    const night = "timeBetween('22:00', '06:00')";
    // 21:30Z is 06:30 next day in Tokyo: outside; 20:30Z is 05:30: inside; 13:00Z is 22:00: inside.
    expect(decide(night, at("2026-03-04T21:30:00Z", "Asia/Tokyo"))).toBe(false);
    expect(decide(night, at("2026-03-04T20:30:00Z", "Asia/Tokyo"))).toBe(true);
    expect(decide(night, at("2026-03-04T13:00:00Z", "Asia/Tokyo"))).toBe(true);
    expect(decide(night, at("2026-03-04T12:59:00Z", "Asia/Tokyo"))).toBe(false);
  });

  it.each(["'24:00'", "'9:00'", "'09:60'", "'0900'", "'09:00:00'", "9", "true"])(
    "refuses the start %s",
    (start) => {
      expect(() => compileExpression(`timeBetween(${start}, '10:00')`)).toThrow("at 12:");
    },
  );
});

describe("dayOfWeekIn", () => {
  // 2026-03-04 is a Wednesday.
  it.each([
    ["'WEDNESDAY'", "2026-03-04T10:00:00Z", true],
    ["'WED'", "2026-03-04T10:00:00Z", true],
    ["'wednesday'", "2026-03-04T10:00:00Z", true],
    ["'Wed'", "2026-03-04T10:00:00Z", true],
    ["'MONDAY', 'TUESDAY', 'THURSDAY', 'FRIDAY'", "2026-03-04T10:00:00Z", false],
    ["'SATURDAY', 'SUN'", "2026-03-07T00:00:00Z", true],
    ["'SATURDAY', 'SUN'", "2026-03-08T23:59:59Z", true],
    ["'SATURDAY', 'SUN'", "2026-03-09T00:00:00Z", false],
    ["'MON', 'MONDAY'", "2026-03-09T12:00:00Z", true],
  ])("dayOfWeekIn(%s) at %s (UTC) → %s", (days, iso, expected) => {
    expect(decide(`dayOfWeekIn(${days})`, at(iso))).toBe(expected);
  });

  it("uses the day of the context's zone", () => {
    const thursday = "dayOfWeekIn('THURSDAY')";
    // 23:30Z on Wednesday is Thursday 08:30 in Tokyo and still Wednesday 18:30 in New York.
    expect(decide(thursday, at("2026-03-04T23:30:00Z", "Asia/Tokyo"))).toBe(true);
    expect(decide(thursday, at("2026-03-04T23:30:00Z", "America/New_York"))).toBe(false);
    expect(decide(thursday, at("2026-03-04T23:30:00Z", "UTC"))).toBe(false);
  });

  it.each(["'FUNDAY'", "'MO'", "''", "'MONDAYS'"])("refuses %s", (day) => {
    expect(() => compileExpression(`dayOfWeekIn('MONDAY', ${day})`)).toThrow("at 22:");
  });

  it("needs at least one day", () => {
    expect(() => compileExpression("dayOfWeekIn()")).toThrow(
      "dayOfWeekIn expects at least 1 argument, got 0",
    );
  });
});

describe("dateBetween", () => {
  it.each([
    ["2026-01-01", "2026-12-31", "2025-12-31T23:59:59Z", false],
    ["2026-01-01", "2026-12-31", "2026-01-01T00:00:00Z", true],
    ["2026-01-01", "2026-12-31", "2026-12-31T23:59:59Z", true],
    ["2026-01-01", "2026-12-31", "2027-01-01T00:00:00Z", false],
    ["2026-03-04", "2026-03-04", "2026-03-04T12:00:00Z", true],
    ["2026-03-04", "2026-03-04", "2026-03-05T00:00:00Z", false],
  ])("dateBetween('%s', '%s') at %s (UTC) → %s", (first, last, iso, expected) => {
    expect(decide(`dateBetween('${first}', '${last}')`, at(iso))).toBe(expected);
  });

  it("uses the date of the context's zone", () => {
    const newYear = "dateBetween('2027-01-01', '2027-01-31')";
    expect(decide(newYear, at("2026-12-31T20:00:00Z", "Asia/Tokyo"))).toBe(true);
    expect(decide(newYear, at("2026-12-31T20:00:00Z", "UTC"))).toBe(false);
  });

  it.each(["'2026-02-29'", "'2026-13-01'", "'2026-1-1'", "'26-01-01'", "'2026-00-10'"])(
    "refuses %s",
    (date) => {
      expect(() => compileExpression(`dateBetween(${date}, '2027-01-01')`)).toThrow("at 12:");
    },
  );

  it("accepts leap days", () => {
    expect(decide("dateBetween('2028-02-29', '2028-02-29')", at("2028-02-29T10:00:00Z"))).toBe(true);
  });
});
