import { AuditSink } from "../../../kernel/audit-sink.js";
import { Clock } from "../../../kernel/clock.js";
import { Logger } from "../../../kernel/logger.js";
import type { PluginContext } from "../../../kernel/plugin.js";
import { PlatformProperties } from "../../../kernel/properties.js";
import { ServerAddress } from "../../../kernel/server-address.js";
import { AccountRouteSource } from "../../chain/account-route-source.js";
import { OneTimeTokenDelivery } from "../../ott/one-time-token-delivery.js";
import { OttGenerationLimiter } from "../../ott/ott-generation-limiter.js";
import { publicUrlOf } from "../../public-url.properties.js";
import { PASSWORD_RESET_PATH, PasswordResetTokenService } from "../admin/password-reset-tokens.js";
import { UserRepository } from "../user-repository.js";
import { ForgotPasswordEndpoint } from "./forgot-password-endpoint.js";

/** "Forgot password" on every chain (`POST /api/password/forgot`), over the platform's ports. */
export function registerPasswordSelfService(ctx: PluginContext): void {
  ctx.registerMember(AccountRouteSource, {
    useFactory: (c) => {
      const publicUrl = publicUrlOf(c.resolve(PlatformProperties), c.resolve(ServerAddress));
      const endpoint = new ForgotPasswordEndpoint({
        users: c.resolve(UserRepository),
        limiter: c.resolve(OttGenerationLimiter),
        resetTokens: c.resolve(PasswordResetTokenService),
        delivery: c.resolve(OneTimeTokenDelivery),
        resetLink: (token) =>
          `${publicUrl().replace(/\/+$/, "")}${PASSWORD_RESET_PATH}?token=${encodeURIComponent(token)}`,
        audit: c.resolve(AuditSink),
        logger: c.resolve(Logger),
        clock: c.resolve(Clock),
      });
      return { id: "password-forgot", routes: () => endpoint.routes() };
    },
  });
}
