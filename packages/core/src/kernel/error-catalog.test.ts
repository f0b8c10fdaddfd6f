import { describe, expect, it } from "vitest";
import { errorCodeEntry, registerErrorCodes } from "./error-catalog.js";
import { codeOf } from "./error-code.test-support.js";
import { KERNEL_ERROR_CODES } from "./kernel-error-codes.js";

const entry = { status: 409, meaning: "Something clashed.", remedy: "Try again." };
const refusal = async (table: Parameters<typeof registerErrorCodes>[0]) =>
  codeOf(Promise.resolve().then(() => registerErrorCodes(table)));

describe("registerErrorCodes", () => {
  it("makes a table's entries known, and registering the same entry again changes nothing", () => {
    registerErrorCodes({ CATALOG_TEST_CLASH: entry });
    registerErrorCodes({ CATALOG_TEST_CLASH: { ...entry } });
    expect(errorCodeEntry("CATALOG_TEST_CLASH")).toEqual(entry);
    expect(errorCodeEntry("VALIDATION_FAILED")).toEqual(KERNEL_ERROR_CODES.VALIDATION_FAILED);
    expect(errorCodeEntry("CATALOG_TEST_NEVER_REGISTERED")).toBeUndefined();
  });

  it("refuses to redefine a code, keeping the first entry", async () => {
    registerErrorCodes({ CATALOG_TEST_KEPT: entry });
    expect(await refusal({ CATALOG_TEST_KEPT: { ...entry, status: 400 } })).toBe("CONFIGURATION_INVALID");
    expect(await refusal({ CATALOG_TEST_KEPT: { ...entry, remedy: "Give up." } })).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(await refusal({ NOT_FOUND: { ...KERNEL_ERROR_CODES.NOT_FOUND, status: 410 } })).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(errorCodeEntry("CATALOG_TEST_KEPT")).toEqual(entry);
    expect(errorCodeEntry("NOT_FOUND")?.status).toBe(404);
  });

  it.each([
    ["a code that is not UPPER_SNAKE", { catalog_test_lower: entry }],
    ["a trailing underscore", { CATALOG_TEST_: entry }],
    ["a 2xx status", { CATALOG_TEST_OK: { ...entry, status: 200 } }],
    ["a status past 599", { CATALOG_TEST_BIG: { ...entry, status: 600 } }],
    ["a fractional status", { CATALOG_TEST_FRACTION: { ...entry, status: 400.5 } }],
    ["an empty meaning", { CATALOG_TEST_MEANING: { ...entry, meaning: " " } }],
    ["an empty remedy", { CATALOG_TEST_REMEDY: { ...entry, remedy: "" } }],
  ])("refuses %s", async (_case, table) => {
    expect(await refusal(table)).toBe("CONFIGURATION_INVALID");
    for (const code of Object.keys(table)) expect(errorCodeEntry(code)).toBeUndefined();
  });

  it("registers nothing of a table that has one bad entry", async () => {
    expect(await refusal({ CATALOG_TEST_GOOD: entry, CATALOG_TEST_BAD: { ...entry, status: 99 } })).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(errorCodeEntry("CATALOG_TEST_GOOD")).toBeUndefined();
  });
});
