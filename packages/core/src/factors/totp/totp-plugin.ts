import { AccountNotices } from "../../identity/notices/account-notices.js";
import { AccountRouteSource } from "../../identity/chain/account-route-source.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { Factor } from "../../mfa/factor-family/factor.js";
import { chainStepUpStarter } from "../../mfa/step-up/fresh-second-factor.js";
import { InMemoryTotpEnrolmentStore } from "./in-memory-totp-enrolment-store.js";
import { TotpEnrolmentEndpoints } from "./totp-enrolment-endpoints.js";
import { TotpEnrolmentStore } from "./totp-enrolment-store.js";
import { totpFactor } from "./totp-factor.js";
import { TotpSecretSeal } from "./totp-secret-seal.js";
import {
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TOTP_PROPERTIES,
  TOTP_STEP_UP_MAX_AGE,
} from "./totp.properties.js";

/**
 * Authenticator apps (RFC 6238) as a plugin factor: one member of the MFA factor family (`TOTP`),
 * its enrolment store (in memory unless a host or adapter registers one), the secret sealed by the
 * key ring, and the signed-in user's enrolment endpoints. Listed after the MFA plugin.
 */
export const totpPlugin: PlatformPlugin = {
  id: "mfa-totp",
  properties: [...TOTP_PROPERTIES],
  register(ctx) {
    if (!ctx.container.isRegistered(Factor, true)) {
      throw new PlatformError("CONFIGURATION_INVALID", "totpPlugin needs mfaPlugin listed before it");
    }
    const parameters = {
      digits: ctx.properties.get(TOTP_DIGITS),
      periodSeconds: ctx.properties.get(TOTP_PERIOD_SECONDS),
    };
    const seal = new TotpSecretSeal();
    ctx.onStart("mfa-totp-seal-key", (c) => seal.start(c.resolve(KeyRing)));
    ctx.registerDefault(TotpEnrolmentStore, { useFactory: () => new InMemoryTotpEnrolmentStore() });
    ctx.registerMember(Factor, {
      useFactory: (c) =>
        totpFactor({ store: c.resolve(TotpEnrolmentStore), seal, clock: c.resolve(Clock), parameters }),
    });
    ctx.registerMember(AccountRouteSource, {
      useFactory: (c) => ({
        id: "mfa-totp",
        routes: () =>
          new TotpEnrolmentEndpoints({
            store: c.resolve(TotpEnrolmentStore),
            seal,
            clock: c.resolve(Clock),
            audit: c.resolve(AuditSink),
            parameters,
            issuer: ctx.properties.get(TOTP_ISSUER),
            stepUpMaxAgeMs: ctx.properties.get(TOTP_STEP_UP_MAX_AGE),
            startStepUp: chainStepUpStarter(c),
            notices: c.resolve(AccountNotices),
          }).routes(),
      }),
    });
  },
};
