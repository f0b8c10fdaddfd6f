import { createPlatform } from "@keyward/core";
import { describe, expect, it } from "vitest";
import { HTTP_MAX_BODY_SIZE, HTTP_TRUST_PROXY, HTTP_TRUSTED_PROXIES, httpPlugin } from "./http-properties.js";

describe("http properties", () => {
  it("default to 1 MiB and no trusted proxy", () => {
    const platform = createPlatform({ plugins: [httpPlugin], env: {} });
    expect(platform.properties.get(HTTP_MAX_BODY_SIZE)).toBe(1_048_576);
    expect(platform.properties.get(HTTP_TRUSTED_PROXIES)).toBe("");
    expect(platform.properties.get(HTTP_TRUST_PROXY)).toBe(false);
  });

  it("read byte sizes and proxy lists from the environment", () => {
    const platform = createPlatform({
      plugins: [httpPlugin],
      env: {
        PLATFORM_HTTP_MAX_BODY_SIZE: "64KiB",
        PLATFORM_HTTP_TRUSTED_PROXIES: " 10.0.0.0/8, loopback ",
        PLATFORM_HTTP_TRUST_PROXY: "false",
      },
    });
    expect(platform.properties.get(HTTP_MAX_BODY_SIZE)).toBe(65_536);
    expect(platform.properties.get(HTTP_TRUSTED_PROXIES)).toBe("10.0.0.0/8, loopback");
  });

  it("take a hop count as text or number, and an empty list", () => {
    const of = (value: unknown) =>
      createPlatform({
        plugins: [httpPlugin],
        env: {},
        properties: { "platform.http.trusted-proxies": value },
      }).properties.get(HTTP_TRUSTED_PROXIES);
    expect(of("2")).toBe("2");
    expect(of(2)).toBe("2");
    expect(of("")).toBe("");
  });

  it("stop start-up on a bad value", () => {
    expect(() =>
      createPlatform({ plugins: [httpPlugin], env: { PLATFORM_HTTP_MAX_BODY_SIZE: "huge" } }),
    ).toThrow(/platform\.http\.max-body-size/);
    expect(() =>
      createPlatform({ plugins: [httpPlugin], env: { PLATFORM_HTTP_TRUSTED_PROXIES: "10.0.0.0/8, proxy" } }),
    ).toThrow(
      /platform\.http\.trusted-proxies="10\.0\.0\.0\/8, proxy" \(from env PLATFORM_HTTP_TRUSTED_PROXIES\) entry "proxy"/,
    );
    expect(() =>
      createPlatform({ plugins: [httpPlugin], env: { PLATFORM_HTTP_TRUSTED_PROXIES: "0" } }),
    ).toThrow(/hop count must be 1\.\.32/);
  });

  it("refuse the removed trust-proxy=true at start, naming the property that replaces it", () => {
    for (const start of [
      () => createPlatform({ plugins: [httpPlugin], env: { PLATFORM_HTTP_TRUST_PROXY: "true" } }),
      () =>
        createPlatform({
          plugins: [httpPlugin],
          env: {},
          properties: { "platform.http.trust-proxy": true, "platform.http.trusted-proxies": "loopback" },
        }),
    ]) {
      expect(start).toThrow(
        /platform\.http\.trust-proxy=.*no longer supported.*platform\.http\.trusted-proxies/,
      );
    }
  });
});
