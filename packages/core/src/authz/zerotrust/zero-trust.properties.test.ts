import { describe, expect, it } from "vitest";
import { resolveProperties } from "../../kernel/properties.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { ZERO_TRUST_PROPERTIES, zeroTrustSettingsFromProperties } from "./zero-trust.properties.js";

const read = (code: Record<string, unknown> = {}, env: Record<string, string> = {}) =>
  zeroTrustSettingsFromProperties(resolveProperties(ZERO_TRUST_PROPERTIES, { code, env }));

describe("zero-trust properties", () => {
  it("declares every Limits key but the four thresholds, plus pending-analysis", () => {
    expect(ZERO_TRUST_PROPERTIES.map((p) => p.key).sort()).toEqual(
      [
        "security.zerotrust.enabled",
        "security.zerotrust.mode",
        "security.zerotrust.sampling.rate",
        "security.zerotrust.hotpath.enabled",
        "security.zerotrust.threat.initial",
        "security.zerotrust.cache.ttl-hours",
        "security.zerotrust.cache.session-ttl-minutes",
        "security.zerotrust.cache.invalidated-ttl-minutes",
        "security.zerotrust.session.tracking-enabled",
        "security.zerotrust.store.timeout",
        "security.zerotrust.store.update-interval-seconds",
        "security.zerotrust.pending-analysis",
      ].sort(),
    );
    // Declaring a threshold twice would stop start-up: the adaptive module owns them.
    expect(() =>
      resolveProperties([...ZERO_TRUST_PROPERTIES, ...ADAPTIVE_PROPERTIES], { env: {} }),
    ).not.toThrow();
  });

  it("has the defaults docs/properties.md lists", () => {
    expect(read()).toEqual({
      enabled: true,
      mode: "ENFORCE",
      samplingRate: 1,
      hotPathEnabled: true,
      threatInitial: 0.3,
      userTtlMaxMs: 24 * 3_600_000,
      sessionTtlMaxMs: 30 * 60_000,
      invalidatedSessionTtlMs: 60 * 60_000,
      sessionTrackingEnabled: true,
      storeTimeoutMs: 5_000,
      updateIntervalMs: 30_000,
      pendingAnalysis: "ALLOW",
    });
  });

  it("reads environment strings, enums in any case", () => {
    expect(
      read(
        {},
        {
          SECURITY_ZEROTRUST_ENABLED: "false",
          SECURITY_ZEROTRUST_MODE: "shadow",
          SECURITY_ZEROTRUST_SAMPLING_RATE: "0.25",
          SECURITY_ZEROTRUST_STORE_TIMEOUT: "PT2S",
          SECURITY_ZEROTRUST_CACHE_TTL_HOURS: "48",
          SECURITY_ZEROTRUST_PENDING_ANALYSIS: "deny",
        },
      ),
    ).toMatchObject({
      enabled: false,
      mode: "SHADOW",
      samplingRate: 0.25,
      storeTimeoutMs: 2_000,
      userTtlMaxMs: 48 * 3_600_000,
      pendingAnalysis: "DENY",
    });
  });

  it.each([
    ["security.zerotrust.mode", "LIVE"],
    ["security.zerotrust.sampling.rate", 1.5],
    ["security.zerotrust.sampling.rate", -0.1],
    ["security.zerotrust.threat.initial", 2],
    ["security.zerotrust.cache.ttl-hours", 0],
    ["security.zerotrust.cache.session-ttl-minutes", 1.5],
    ["security.zerotrust.cache.invalidated-ttl-minutes", "soon"],
    ["security.zerotrust.store.timeout", "0ms"],
    ["security.zerotrust.store.timeout", "2m"],
    ["security.zerotrust.store.update-interval-seconds", 0],
    ["security.zerotrust.pending-analysis", "MAYBE"],
    ["security.zerotrust.hotpath.enabled", "yes"],
  ])("refuses %s=%s at start-up", (key, value) => {
    expect(() => read({ [key]: value })).toThrow(expect.objectContaining({ code: "PROPERTY_INVALID" }));
  });

  it("marks only threat.initial inert, with the reason", () => {
    const inert = ZERO_TRUST_PROPERTIES.filter((p) => p.inert !== undefined);
    expect(inert.map((p) => p.key)).toEqual(["security.zerotrust.threat.initial"]);
    expect(inert[0]?.inert).toMatch(/no per-session threat-scoring pipeline/);
  });
});
