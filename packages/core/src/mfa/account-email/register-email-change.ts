import { AccountRouteSource } from "../../identity/chain/account-route-source.js";
import { OneTimeTokenDelivery } from "../../identity/ott/one-time-token-delivery.js";
import { publicUrlOf } from "../../identity/public-url.properties.js";
import { revokeMailedLinksIn } from "../../identity/users/admin/user-admin-api.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { Logger } from "../../kernel/logger.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { ServerAddress } from "../../kernel/server-address.js";
import { chainStepUpStarter } from "../step-up/fresh-second-factor.js";
import { EmailChangeEndpoints } from "./email-change-endpoints.js";
import { EmailChangeLinks } from "./email-change-links.js";

/** Asking to change one's address needs a second factor proved this recently (as enrolling a factor). */
export const EMAIL_CHANGE_STEP_UP_MAX_AGE_MS = 5 * 60_000;

/**
 * The user's own e-mail address (the OTT factor's codes and every link go to it), on every chain:
 * the link key from the KeyRing at start, the endpoints over the platform's ports.
 */
export function registerEmailChange(ctx: PluginContext): void {
  const links = new EmailChangeLinks();
  ctx.onStart("mfa-email-change-key", (c) => links.start(c.resolve(KeyRing)));
  ctx.registerMember(AccountRouteSource, {
    useFactory: (c) => {
      const endpoints = new EmailChangeEndpoints({
        users: c.resolve(UserRepository),
        links,
        delivery: c.resolve(OneTimeTokenDelivery),
        clock: c.resolve(Clock),
        audit: c.resolve(AuditSink),
        logger: c.resolve(Logger),
        publicUrl: publicUrlOf(ctx.properties, c.resolve(ServerAddress)),
        stepUpMaxAgeMs: EMAIL_CHANGE_STEP_UP_MAX_AGE_MS,
        startStepUp: chainStepUpStarter(c),
        revokeMailedLinks: revokeMailedLinksIn(c),
      });
      return { id: "mfa-email-change", routes: () => endpoints.routes() };
    },
  });
}
