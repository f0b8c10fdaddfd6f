import { describe, expect, it } from "vitest";
import { isPlatformError, type PlatformError } from "../../kernel/platform-error.js";
import { resolveProperties } from "../../kernel/properties.js";
import {
  ADAPTIVE_PROPERTIES,
  MFA_ADAPTIVE_TIMEOUT,
  RISK_THRESHOLDS_DEFAULTS,
  checkRiskThresholds,
  riskBandOf,
  riskThresholdsFromProperties,
} from "./risk-thresholds.js";

function failure(run: () => unknown): PlatformError {
  try {
    run();
  } catch (error) {
    if (isPlatformError(error)) return error;
    throw error;
  }
  throw new Error("expected a PlatformError");
}

describe("adaptive properties", () => {
  it("default to skip 0.3, optional 0.5, required 0.7, strict 0.9", () => {
    const properties = resolveProperties(ADAPTIVE_PROPERTIES, { env: {} });
    expect(riskThresholdsFromProperties(properties)).toEqual({
      skip: 0.3,
      optional: 0.5,
      required: 0.7,
      strict: 0.9,
    });
    expect(RISK_THRESHOLDS_DEFAULTS).toEqual({ skip: 0.3, optional: 0.5, required: 0.7, strict: 0.9 });
    expect(properties.get(MFA_ADAPTIVE_TIMEOUT)).toBe(1500);
  });

  it("read the environment and code", () => {
    const properties = resolveProperties(ADAPTIVE_PROPERTIES, {
      env: { SECURITY_ZEROTRUST_THRESHOLDS_SKIP: "0.1", PLATFORM_AUTH_MFA_ADAPTIVE_TIMEOUTMS: "PT2S" },
      code: { "security.zerotrust.thresholds.strict": 0.95 },
    });
    expect(riskThresholdsFromProperties(properties)).toEqual({
      skip: 0.1,
      optional: 0.5,
      required: 0.7,
      strict: 0.95,
    });
    expect(properties.get(MFA_ADAPTIVE_TIMEOUT)).toBe(2000);
  });

  it("refuse a threshold outside [0, 1] and a timeout outside 1ms..60s", () => {
    for (const code of [
      { "security.zerotrust.thresholds.skip": -0.1 },
      { "security.zerotrust.thresholds.strict": 1.5 },
      { "security.zerotrust.thresholds.optional": "half" },
      { "platform.auth.mfa.adaptive.timeoutMs": 0 },
      { "platform.auth.mfa.adaptive.timeoutMs": "2m" },
    ]) {
      const error = failure(() => resolveProperties(ADAPTIVE_PROPERTIES, { env: {}, code }));
      expect(error.code).toBe("PROPERTY_INVALID");
      expect(error.details?.key).toBe(Object.keys(code)[0]);
    }
  });

  it("refuse thresholds out of order, naming the keys", () => {
    const properties = resolveProperties(ADAPTIVE_PROPERTIES, {
      env: {},
      code: { "security.zerotrust.thresholds.optional": 0.8 },
    });
    const error = failure(() => riskThresholdsFromProperties(properties));
    expect(error.code).toBe("PROPERTY_INVALID");
    expect(error.message).toContain(
      "security.zerotrust.thresholds.required=0.7 must be >= security.zerotrust.thresholds.optional=0.8",
    );
    expect(error.details?.keys).toEqual([
      "security.zerotrust.thresholds.optional",
      "security.zerotrust.thresholds.required",
    ]);
  });

  it("accept equal thresholds (a collapsed band)", () => {
    const properties = resolveProperties(ADAPTIVE_PROPERTIES, {
      env: {},
      code: { "security.zerotrust.thresholds.required": 0.5, "security.zerotrust.thresholds.strict": 0.5 },
    });
    expect(riskThresholdsFromProperties(properties).strict).toBe(0.5);
  });
});

describe("checkRiskThresholds", () => {
  it("reports every problem with CONFIGURATION_INVALID by default", () => {
    const error = failure(() =>
      checkRiskThresholds({ skip: 0.6, optional: 0.5, required: Number.NaN, strict: 0.4 }),
    );
    expect(error.code).toBe("CONFIGURATION_INVALID");
    expect(error.message).toContain(
      "security.zerotrust.thresholds.required=NaN must be a number between 0 and 1",
    );
    expect(error.message).toContain(
      "thresholds.optional=0.5 must be >= security.zerotrust.thresholds.skip=0.6",
    );
  });

  it("returns a frozen copy", () => {
    const t = checkRiskThresholds({ ...RISK_THRESHOLDS_DEFAULTS });
    expect(Object.isFrozen(t)).toBe(true);
  });
});

describe("riskBandOf", () => {
  it("puts each threshold in the band above it", () => {
    const t = RISK_THRESHOLDS_DEFAULTS;
    const cases: [number, string][] = [
      [0, "skip"],
      [0.2999, "skip"],
      [0.3, "optional"],
      [0.4999, "optional"],
      [0.5, "elevated"],
      [0.6999, "elevated"],
      [0.7, "required"],
      [0.8999, "required"],
      [0.9, "strict"],
      [1, "strict"],
    ];
    for (const [score, band] of cases) expect(riskBandOf(score, t), String(score)).toBe(band);
  });
});
