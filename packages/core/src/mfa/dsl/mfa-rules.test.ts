import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { MfaOptions } from "./mfa-options.js";
import { validateMfaFlow } from "./validate-mfa-flow.js";

function message(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (isPlatformError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "no error";
}

const flow = (): MfaOptions => new MfaOptions().primaryAuthentication((p) => p.formLogin());

describe("MFA build rules", () => {
  it("needs a primary authentication", () => {
    expect(message(() => validateMfaFlow(new MfaOptions().ott()))).toMatch(/needs a primary authentication/);
  });

  it("needs at least one secondary factor (rule 2)", () => {
    expect(message(() => validateMfaFlow(flow()))).toMatch(/at least one secondary factor/);
  });

  it("accepts a flow with the OTT factor", () => {
    expect(message(() => validateMfaFlow(flow().ott()))).toBe("no error");
  });

  it("refuses the same factor type twice", () => {
    expect(message(() => validateMfaFlow(flow().ott().ott()))).toMatch(/same factor type twice/);
  });

  it.each([0, 2, -1, 1.5])("refuses requiredFactors(%d) outside 1..factors (deliberate)", (n) => {
    expect(message(() => validateMfaFlow(flow().ott().requiredFactors(n)))).toMatch(
      /^CONFIGURATION_INVALID: \.mfa\(\): requiredFactors\(.*\) must be between 1 and the 1 configured factor/,
    );
  });

  it("names a named flow in its errors", () => {
    expect(message(() => validateMfaFlow(flow().name("admin")))).toMatch(
      /^CONFIGURATION_INVALID: mfa_admin needs/,
    );
  });

  it("accepts OTT and passkey factors together", () => {
    expect(message(() => validateMfaFlow(flow().ott().passkey().requiredFactors(2)))).toBe("no error");
  });
});
