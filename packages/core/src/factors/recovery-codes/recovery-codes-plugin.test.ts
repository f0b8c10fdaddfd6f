import { describe, expect, it } from "vitest";
import { createIdentityPlugin } from "../../identity/identity-plugin.js";
import type { MfaOptions } from "../../mfa/dsl/mfa-options.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { createPlatform } from "../../kernel/platform.js";
import { mfaPlugin } from "../../mfa/mfa-plugin.js";
import { recoveryCodesPlugin } from "./recovery-codes-plugin.js";

/** Starts (and stops) a platform whose one MFA flow is `flow`'s, with recovery codes; rejects when refused. */
async function startWith(
  flow: (m: MfaOptions) => MfaOptions,
  properties: Record<string, unknown> = {},
  plugins = [mfaPlugin, recoveryCodesPlugin],
): Promise<void> {
  const identity = createIdentityPlugin({
    security: (r) =>
      r
        .mfa((m) => flow(m.primaryAuthentication((p) => p.formLogin())))
        .session()
        .build(),
  });
  const platform = createPlatform({ env: {}, properties, plugins: [identity, ...plugins] });
  try {
    await platform.start();
  } finally {
    await platform.stop().catch(() => undefined);
  }
}

describe("recoveryCodesPlugin: a recovery code never takes a named factor's place unless allowed", () => {
  it("refuses a flow whose every named factor is required (OTT alone, or OTT and PASSKEY both)", async () => {
    const alone = startWith((m) => m.ott().factor("RECOVERY_CODE").requiredFactors(1));
    await expect(alone).rejects.toThrow("RECOVERY_CODE would stand in");
    expect(await codeOf(alone)).toBe("CONFIGURATION_INVALID");
    const both = startWith((m) => m.ott().passkey().factor("RECOVERY_CODE").requiredFactors(2));
    expect(await codeOf(both)).toBe("CONFIGURATION_INVALID");
  });

  it("accepts it as one choice among named factors (one of OTT and PASSKEY)", async () => {
    await startWith((m) => m.ott().passkey().factor("RECOVERY_CODE").requiredFactors(1));
  });

  it("with satisfiesNamedFactors=true, lets it stand in for a required named factor", async () => {
    const allowed = { "platform.auth.mfa.recoveryCode.satisfiesNamedFactors": true };
    await startWith((m) => m.ott().factor("RECOVERY_CODE").requiredFactors(1), allowed);
  });

  it("needs mfaPlugin before it", async () => {
    expect(await codeOf(startWith((m) => m.ott(), {}, [recoveryCodesPlugin, mfaPlugin]))).toBe(
      "CONFIGURATION_INVALID",
    );
  });
});
