import { describe, expect, it } from "vitest";
import {
  cacheControlFor,
  contentHashOf,
  IMMUTABLE_CACHE_CONTROL,
  REVALIDATE_CACHE_CONTROL,
} from "./static-asset-cache.js";

describe("static asset cache rule", () => {
  const digest = `abcdef012345${"9".repeat(52)}`;

  it("reads a 12-hex content hash just before the extension", () => {
    expect(contentHashOf("platform-mfa-sdk.abcdef012345.js")).toBe("abcdef012345");
    expect(contentHashOf("platform-mfa-sdk.esm.abcdef012345.js")).toBe("abcdef012345");
    for (const name of [
      "app.js",
      "app.ABCDEF012345.js",
      "app.abcdef01234.js",
      "abcdef012345.js",
      "app.abcdef012345",
    ]) {
      expect(contentHashOf(name), name).toBeUndefined();
    }
  });

  it("is immutable only when the name's hash is the prefix of the file's sha-256", () => {
    expect(cacheControlFor("app.abcdef012345.js", digest)).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(cacheControlFor("app.abcdef012346.js", digest)).toBe(REVALIDATE_CACHE_CONTROL);
    expect(cacheControlFor("app.js", digest)).toBe(REVALIDATE_CACHE_CONTROL);
  });
});
