import { describe, expect, it } from "vitest";
import type { PlatformErrorCode } from "../kernel/error-code-table.js";
import { PlatformError } from "../kernel/platform-error.js";
import { createErrorCatalog } from "../kernel/error-catalog.js";
import { KERNEL_ERROR_CODES } from "../kernel/kernel-error-codes.js";
import { errorResponse } from "./error-response.js";
import { attachErrorCatalog, errorCatalogOf, isClientError } from "./exchange-error-catalog.js";
import { HttpExchange } from "./http-exchange.js";
import { WEB_ERROR_CODES } from "./web-error-codes.js";

// A table standing in for a higher module's or a host's (web cannot import a higher module).
const SHOP = {
  SHOP_OUT_OF_STOCK: { status: 409, meaning: "Sold out.", remedy: "Choose another item." },
  SHOP_LOCKED: { status: 423, meaning: "Locked.", remedy: "Wait." },
} as const;
const catalog = createErrorCatalog([
  { source: "kernel", table: KERNEL_ERROR_CODES },
  { source: "web", table: WEB_ERROR_CODES },
  { source: "shop", table: SHOP },
]);

describe("a platform's error catalog", () => {
  it.each([
    ["MALFORMED_JSON", 400],
    ["VALIDATION_FAILED", 400],
    ["UNSUPPORTED_MEDIA_TYPE", 415],
    ["PAYLOAD_TOO_LARGE", 413],
    ["ILLEGAL_STATE_TRANSITION", 409],
    ["SHOP_OUT_OF_STOCK", 409],
    ["SHOP_LOCKED", 423],
    ["NO_SUCH_CODE", 500],
  ])("%s answers %d", (code, status) => {
    expect(catalog.statusOf(code)).toBe(status);
  });

  it("is what an exchange answers with once attached; a bare exchange knows the kernel's and web's codes", () => {
    const bare = new HttpExchange({ method: "GET", url: "/", headers: {}, remoteAddress: "10.0.0.1" });
    const served = new HttpExchange({ method: "GET", url: "/", headers: {}, remoteAddress: "10.0.0.1" });
    attachErrorCatalog(served, catalog);
    const shop = new PlatformError("SHOP_LOCKED" as PlatformErrorCode, "Locked");
    expect([
      errorCatalogOf(bare).statusOf("SHOP_LOCKED"),
      errorCatalogOf(served).statusOf("SHOP_LOCKED"),
    ]).toEqual([500, 423]);
    expect(errorCatalogOf(bare).statusOf("MALFORMED_JSON")).toBe(400);
    expect([isClientError(shop, bare), isClientError(shop, served)]).toEqual([false, true]);
    expect(isClientError(new Error("x"), served)).toBe(false);
  });
});

describe("errorResponse", () => {
  it("keeps a client error's code, message and details", () => {
    const r = errorResponse(
      new PlatformError("VALIDATION_FAILED", "username is required", { details: { field: "username" } }),
      "c1",
      catalog,
    );
    expect(r).toEqual({
      status: 400,
      body: { code: "VALIDATION_FAILED", message: "username is required", field: "username" },
      unexpected: false,
    });
  });

  it("does not let details overwrite the code or message", () => {
    // A code known only at run time takes untyped details, hostile ones included.
    const code = "SHOP_OUT_OF_STOCK" as PlatformErrorCode;
    const r = errorResponse(
      new PlatformError(code, "Sold out", { details: { code: "X", message: "y" } }),
      "c",
      catalog,
    );
    expect(r.body.code).toBe("SHOP_OUT_OF_STOCK");
    expect(r.body.message).toBe("Sold out");
  });

  it("hides unknown errors behind a generic 500 with the correlation id", () => {
    const r = errorResponse(new TypeError("secret internals at /srv/app.ts:12"), "corr-9", catalog);
    expect(r).toEqual({
      status: 500,
      body: { code: "INTERNAL_ERROR", message: "Internal error", correlationId: "corr-9" },
      unexpected: true,
    });
  });

  it("hides the message of a 5xx PlatformError too", () => {
    const r = errorResponse(new PlatformError("CONFIGURATION_INVALID", "db password wrong"), "c2", catalog);
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain("password");
    expect(r.unexpected).toBe(true);
    expect(r.body.code).toBe("INTERNAL_ERROR");
  });

  it("answers a code the platform does not know as a generic 500, whatever another platform knows", () => {
    const r = errorResponse(
      new PlatformError("SHOP_LOCKED" as PlatformErrorCode, "Locked"),
      "c3",
      createErrorCatalog([]),
    );
    expect(r).toEqual({
      status: 500,
      body: { code: "INTERNAL_ERROR", message: "Internal error", correlationId: "c3" },
      unexpected: true,
    });
  });
});
