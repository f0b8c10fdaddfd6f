import { SignInFailureHook } from "../identity/authentication/sign-in-failure-hook.js";
import { registerAccount } from "./account/register-account.js";
import { registerEmailChange } from "./account-email/register-email-change.js";
import { ChainHook } from "../identity/chain/chain-hook.js";
import { SignInMethod } from "../identity/chain/sign-in-method.js";
import { SecurityConfiguration } from "../identity/dsl/security-registry.js";
import { Clock } from "../kernel/clock.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "./adaptive/risk-thresholds.js";
import { SignInHistoryStore } from "./adaptive/sign-in-history-store.js";
import { MfaChainHook } from "./chain/mfa-chain-hook.js";
import { MfaFlows } from "./chain/mfa-flows.js";
import { MfaSignInMethod } from "./chain/mfa-sign-in-method.js";
import { DEVICE_COOKIE_PROPERTIES } from "./device/device-cookie.properties.js";
import { MFA_PERFORMANCE_ALERT } from "./events/mfa-events.properties.js";
import { MFA_PAGE_PROPERTIES } from "./mfa-pages.properties.js";
import {
  MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED,
  MFA_BUILTIN_ANALYZER,
  MFA_POLICY,
} from "./mfa-policy.properties.js";
import { MFA_PROPERTIES, mfaSettingsFromProperties } from "./mfa.properties.js";
import { registerMfaDefaults } from "./register-mfa-defaults.js";
import { MFA_FACTORS } from "./factor-family/mfa-factors.properties.js";
import { MFA_ERROR_CODES } from "./mfa-error-codes.js";
import { mfaRegistryMethod } from "./dsl/mfa-dsl.js";
import { recentFactorRule } from "./step-up/recent-factor.js";
import { SecurityRegistryMethod } from "../identity/dsl/security-registry-method.js";
import { ContributedRule } from "../identity/http-security/contributed-rule.js";

/**
 * The MFA module: the `.mfa()` sign-in method (primary step, MFA API and pages, escalations), its
 * hook on every other chain (no bypass, step-up), the policy providers, the state machine and the
 * stores behind them. Listed after the identity plugin; a `.mfa()` chain without it refuses to start.
 */
export const mfaPlugin: PlatformPlugin = {
  id: "mfa",
  properties: [
    ...MFA_PROPERTIES,
    ...MFA_PAGE_PROPERTIES,
    MFA_PERFORMANCE_ALERT,
    MFA_POLICY,
    MFA_BUILTIN_ANALYZER,
    MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED,
    ...ADAPTIVE_PROPERTIES,
    ...DEVICE_COOKIE_PROPERTIES,
    MFA_FACTORS,
  ],
  errorCodes: [MFA_ERROR_CODES],
  register(ctx) {
    // `.mfa()` in this platform's registry DSL and `recentFactor` in its chains' static rules.
    ctx.registerMember(SecurityRegistryMethod, { useValue: mfaRegistryMethod });
    ctx.registerMember(ContributedRule, { useValue: recentFactorRule });
    registerMfaDefaults(ctx);
    // The user's own e-mail address, changed after a fresh second factor through a mailed link.
    registerEmailChange(ctx);
    // GET /api/account: the signed-in user's address, factors, passkeys and open sessions.
    registerAccount(ctx);
    ctx.registerDefault(MfaFlows, { useFactory: () => new MfaFlows() });
    ctx.registerMember(SignInMethod, {
      useFactory: (c) => new MfaSignInMethod(c, ctx.properties, c.resolve(MfaFlows)),
    });
    ctx.registerMember(ChainHook, { useFactory: (c) => new MfaChainHook(c, c.resolve(MfaFlows)) });
    // Installing MFA is not enforcing it: say so when holders of required authorities can sign in
    // through single-factor chains because no `.mfa()` chain exists to hand them to.
    ctx.onStart("mfa-enforcement", (c) => {
      const required = mfaSettingsFromProperties(ctx.properties).requiredAuthorities;
      const chains = c.isRegistered(SecurityConfiguration, false)
        ? c.resolve(SecurityConfiguration).chains
        : [];
      if (required.length === 0 || chains.length === 0 || chains.some((d) => d.kind === "mfa")) return;
      c.resolve(Logger).warn(
        "MFA is installed but not enforced: no .mfa() chain exists, so holders of the required " +
          "authorities sign in through the other chains with their first factor alone",
        { requiredAuthorities: [...required] },
      );
    });
    // Wrong passwords of known users feed the adaptive policy's failed-attempt velocity.
    ctx.registerMember(SignInFailureHook, {
      useFactory: (c) => ({
        id: "mfa-sign-in-history",
        onKnownUserFailure: (userId) =>
          c.resolve(SignInHistoryStore).recordFailure({ userId, at: c.resolve(Clock).now() }),
      }),
    });
  },
};
