import { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { ottFactor, passkeyFactor } from "./built-in-factors.js";
import { Factor } from "./factor.js";
import { FACTOR_CATALOG, FactorCatalog } from "./factor-catalog.js";
import { MFA_FACTORS } from "./mfa-factors.properties.js";

/**
 * The factor family's built-in members (OTT, then PASSKEY) and the catalog every MFA part reads:
 * the members registered by any plugin, narrowed to `platform.auth.mfa.factors`.
 */
export function registerFactorFamily(ctx: PluginContext): void {
  ctx.registerMember(Factor, { useFactory: () => ottFactor() });
  ctx.registerMember(Factor, {
    useFactory: (c) => passkeyFactor(c.resolve(PasskeyCredentialRepository)),
  });
  const offered = ctx.properties.get(MFA_FACTORS);
  ctx.registerDefault(FACTOR_CATALOG, {
    useFactory: (c) => new FactorCatalog(c.resolveAll(Factor), offered),
  });
}
