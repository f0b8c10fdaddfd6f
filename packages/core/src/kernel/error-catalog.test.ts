import { describe, expect, it } from "vitest";
import { createErrorCatalog, type ErrorCodeSource } from "./error-catalog.js";
import type { ErrorCodeTable } from "./error-code-table.js";
import { codeOf } from "./error-code.test-support.js";
import { KERNEL_ERROR_CODES } from "./kernel-error-codes.js";
import { PlatformError } from "./platform-error.js";

const entry = { status: 409, meaning: "Something clashed.", remedy: "Try again." };
const kernel: ErrorCodeSource = { source: "kernel", table: KERNEL_ERROR_CODES };
const from = (source: string, table: ErrorCodeTable): ErrorCodeSource => ({ source, table });
const refusal = async (...sources: ErrorCodeSource[]) =>
  codeOf(Promise.resolve().then(() => createErrorCatalog(sources)));

describe("createErrorCatalog", () => {
  it("knows the tables' codes, one table listed twice being one, and answers 500 for any other", () => {
    const catalog = createErrorCatalog([
      kernel,
      from("a", { CATALOG_TEST_CLASH: entry }),
      from("b", { CATALOG_TEST_CLASH: { ...entry } }),
    ]);
    expect(catalog.entry("CATALOG_TEST_CLASH")).toEqual(entry);
    expect(catalog.entry("VALIDATION_FAILED")).toEqual(KERNEL_ERROR_CODES.VALIDATION_FAILED);
    expect(catalog.entry("CATALOG_TEST_NEVER_LISTED")).toBeUndefined();
    expect([catalog.statusOf("CATALOG_TEST_CLASH"), catalog.statusOf("CATALOG_TEST_NEVER_LISTED")]).toEqual([
      409, 500,
    ]);
    expect(catalog.codes()).toEqual([...Object.keys(KERNEL_ERROR_CODES), "CATALOG_TEST_CLASH"]);
  });

  it("takes an error's explicit status before its code's", () => {
    const catalog = createErrorCatalog([kernel]);
    expect(catalog.statusOfError(new PlatformError("NOT_FOUND", "gone"))).toBe(404);
    expect(catalog.statusOfError(new PlatformError("NOT_FOUND", "gone", { status: 410 }))).toBe(410);
  });

  it("refuses a code two tables define differently, in either order, naming both sources", async () => {
    const first = from("shop", { CATALOG_TEST_KEPT: entry });
    const second = from("other", { CATALOG_TEST_KEPT: { ...entry, status: 400 } });
    expect(await refusal(first, second)).toBe("CONFIGURATION_INVALID");
    expect(await refusal(second, first)).toBe("CONFIGURATION_INVALID");
    expect(await refusal(first, from("other", { CATALOG_TEST_KEPT: { ...entry, remedy: "Give up." } }))).toBe(
      "CONFIGURATION_INVALID",
    );
    expect(
      await refusal(kernel, from("shop", { NOT_FOUND: { ...KERNEL_ERROR_CODES.NOT_FOUND, status: 410 } })),
    ).toBe("CONFIGURATION_INVALID");
    expect(() => createErrorCatalog([first, second])).toThrow(
      /CATALOG_TEST_KEPT \(from other\): shop already defines it/,
    );
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
    expect(await refusal(kernel, from("host", table))).toBe("CONFIGURATION_INVALID");
  });
});
