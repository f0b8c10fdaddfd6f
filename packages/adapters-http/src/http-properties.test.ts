import { createPlatform } from "@platform/core";
import { describe, expect, it } from "vitest";
import { HTTP_MAX_BODY_SIZE, HTTP_TRUST_PROXY, httpPlugin } from "./http-properties.js";

describe("http properties", () => {
  it("default to 1 MiB and no proxy trust", () => {
    const platform = createPlatform({ plugins: [httpPlugin], env: {} });
    expect(platform.properties.get(HTTP_MAX_BODY_SIZE)).toBe(1_048_576);
    expect(platform.properties.get(HTTP_TRUST_PROXY)).toBe(false);
  });

  it("read byte sizes and booleans from the environment", () => {
    const platform = createPlatform({
      plugins: [httpPlugin],
      env: { PLATFORM_HTTP_MAX_BODY_SIZE: "64KiB", PLATFORM_HTTP_TRUST_PROXY: "true" },
    });
    expect(platform.properties.get(HTTP_MAX_BODY_SIZE)).toBe(65_536);
    expect(platform.properties.get(HTTP_TRUST_PROXY)).toBe(true);
  });

  it("stop start-up on a bad value", () => {
    expect(() =>
      createPlatform({ plugins: [httpPlugin], env: { PLATFORM_HTTP_MAX_BODY_SIZE: "huge" } }),
    ).toThrow(/platform\.http\.max-body-size/);
  });
});
