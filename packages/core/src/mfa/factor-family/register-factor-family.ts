import { PasskeyCredentialRepository } from "../../identity/passkey/passkey-credential-repository.js";
import { AccountDeletionHook } from "../../identity/users/admin/account-deletion-hook.js";
import { AccountFactorReset } from "../../identity/users/admin/account-factor-reset.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { ottFactor, passkeyFactor } from "./built-in-factors.js";
import { Factor } from "./factor.js";
import { FACTOR_CATALOG, FactorCatalog } from "./factor-catalog.js";
import { factorFamilyDeletion, factorFamilyReset } from "./factor-enrolment-removal.js";
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
  // A plugin factor's enrolments go with an administrator's reset and with the account.
  ctx.registerMember(AccountFactorReset, { useFactory: (c) => factorFamilyReset(c) });
  ctx.registerMember(AccountDeletionHook, { useFactory: (c) => factorFamilyDeletion(c) });
  const offered = ctx.properties.get(MFA_FACTORS);
  ctx.registerDefault(FACTOR_CATALOG, {
    useFactory: (c) => new FactorCatalog(c.resolveAll(Factor), offered),
  });
}
