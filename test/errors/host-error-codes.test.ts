import { createPlatform, identityPlugin, type PlatformPlugin } from "@keyward/core";
import {
  ErrorCatalog,
  type ErrorCodeTable,
  type ErrorCodesOf,
  isPlatformError,
  PlatformError,
} from "@keyward/core/errors";
import { errorResponse } from "@keyward/core/web";
import { describe, expect, it } from "vitest";

// What docs/errors.md tells a host to write: a table of its own codes, its details types merged into
// PlatformErrorCodes, and the table contributed by a plugin of its own to the platform that answers.
const SHOP_ERROR_CODES = {
  SHOP_OUT_OF_STOCK: {
    status: 409,
    meaning: "The item sold out while the order was being placed.",
    remedy: "Choose another item or quantity.",
  },
  SHOP_PAYMENT_PROVIDER_DOWN: {
    status: 503,
    meaning: "The payment provider does not answer.",
    remedy: "Retry in a few minutes.",
  },
} as const satisfies ErrorCodeTable;

type ShopErrorDetails = { SHOP_OUT_OF_STOCK: { sku: string; available: number } };

declare module "@keyward/core/errors" {
  interface PlatformErrorCodes extends ErrorCodesOf<typeof SHOP_ERROR_CODES, ShopErrorDetails> {}
}

const shopPlugin: PlatformPlugin = { id: "shop", errorCodes: [SHOP_ERROR_CODES] };
const catalog = createPlatform({ plugins: [shopPlugin], env: {} }).resolve(ErrorCatalog);

describe("a host's own error codes", () => {
  it("answer with their status on the platform its plugin is installed in, details in the body", () => {
    const error = new PlatformError("SHOP_OUT_OF_STOCK", "Sold out", {
      details: { sku: "A-1", available: 0 },
    });
    expect(catalog.statusOf("SHOP_OUT_OF_STOCK")).toBe(409);
    expect(errorResponse(error, "c1", catalog)).toEqual({
      status: 409,
      body: { code: "SHOP_OUT_OF_STOCK", message: "Sold out", sku: "A-1", available: 0 },
      unexpected: false,
    });
    expect(catalog.entry("SHOP_PAYMENT_PROVIDER_DOWN")).toEqual(SHOP_ERROR_CODES.SHOP_PAYMENT_PROVIDER_DOWN);
    // Another platform of the same process, without the plugin, does not know them.
    const other = createPlatform({ env: {} }).resolve(ErrorCatalog);
    expect(errorResponse(error, "c1", other)).toMatchObject({ status: 500, unexpected: true });
  });

  it("type their details and refuse unknown codes at compile time", () => {
    // @ts-expect-error a code no table declares
    const typo = new PlatformError("SHOP_OUT_OF_STOK", "Sold out");
    // @ts-expect-error SHOP_OUT_OF_STOCK's details need `available`
    new PlatformError("SHOP_OUT_OF_STOCK", "Sold out", { details: { sku: "A-1" } });
    // @ts-expect-error SHOP_PAYMENT_PROVIDER_DOWN carries no details
    new PlatformError("SHOP_PAYMENT_PROVIDER_DOWN", "Down", { details: { provider: "x" } });
    // A code no plugin contributed still answers 500, never a success.
    expect(errorResponse(typo, "c2", catalog).status).toBe(500);
  });

  it("read typed details after narrowing by code", () => {
    const caught: unknown = new PlatformError("SHOP_OUT_OF_STOCK", "Sold out", {
      details: { sku: "B-2", available: 3 },
    });
    if (!isPlatformError(caught, "SHOP_OUT_OF_STOCK")) throw new Error("not narrowed");
    const available: number | undefined = caught.details?.available;
    expect(available).toBe(3);
    expect(isPlatformError(caught, "SHOP_PAYMENT_PROVIDER_DOWN")).toBe(false);
  });

  it("cannot take a built-in code's place, wherever the host's plugin stands", () => {
    const hiding: PlatformPlugin = {
      id: "hiding",
      errorCodes: [{ ACCESS_DENIED: { status: 404, meaning: "Hidden.", remedy: "None." } }],
    };
    for (const plugins of [
      [hiding, identityPlugin],
      [identityPlugin, hiding],
    ])
      expect(() => createPlatform({ plugins, env: {} })).toThrow(
        expect.objectContaining({ code: "CONFIGURATION_INVALID" }),
      );
  });
});
