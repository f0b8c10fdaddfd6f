import { ServerAddress } from "../../kernel/server-address.js";
import type { DependencyContainer } from "tsyringe";
import { Clock } from "../../kernel/clock.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { PluginContext } from "../../kernel/plugin.js";
import type { OttDependencies } from "../chain/chain-dependencies.js";
import { publicUrlOf } from "../public-url.properties.js";
import { LoginThrottle } from "../throttle/login-throttle.js";
import { UserRepository } from "../users/user-repository.js";
import { ConsoleOneTimeTokenDelivery } from "./console-one-time-token-delivery.js";
import { InMemoryOneTimeTokenService } from "./in-memory-one-time-token-service.js";
import { InMemoryOttGenerationLimiter } from "./in-memory-ott-generation-limiter.js";
import { OneTimeTokenDelivery } from "./one-time-token-delivery.js";
import { OneTimeTokenService } from "./one-time-token-service.js";
import { OttGenerationLimiter } from "./ott-generation-limiter.js";
import { ottSettingsFromProperties } from "./ott.properties.js";
import { OutboxOneTimeTokenDelivery } from "./outbox-one-time-token-delivery.js";
import { addressedDelivery } from "./addressed-delivery.js";
import { AccountNotices, deliveredAccountNotices } from "../notices/account-notices.js";

/** Registers the OTT defaults (token service, delivery, generation limiter) where the host gave none. */
export function registerOttDefaults(ctx: PluginContext): void {
  const settings = ottSettingsFromProperties(ctx.properties);
  ctx.registerDefault(OneTimeTokenService, {
    useFactory: (c) =>
      new InMemoryOneTimeTokenService({
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        ttlMs: settings.tokenTtlMs,
      }),
  });
  if (settings.delivery === "smtp") requireSmtpDelivery(ctx);
  else {
    ctx.registerDefault(OneTimeTokenDelivery, {
      useFactory: () =>
        settings.delivery === "console"
          ? new ConsoleOneTimeTokenDelivery()
          : new OutboxOneTimeTokenDelivery({ file: settings.outboxFile }),
    });
  }
  ctx.registerDefault(AccountNotices, {
    useFactory: (c) =>
      deliveredAccountNotices({
        delivery: addressedDelivery(c.resolve(OneTimeTokenDelivery), c.resolve(UserRepository)),
        clock: c.resolve(Clock),
        logger: c.resolve(Logger),
        publicUrl: publicUrlOf(ctx.properties, c.resolve(ServerAddress)),
      }),
  });
  ctx.registerDefault(OttGenerationLimiter, {
    useFactory: (c) =>
      new InMemoryOttGenerationLimiter({
        clock: c.resolve(Clock),
        maxPerUser: settings.maxPerUser,
        maxPerIp: settings.maxPerIp,
        windowMs: settings.windowMs,
      }),
  });
}

/**
 * `delivery=smtp`: the core registers no delivery (SMTP lives in an adapter package, whose plugin
 * registers it wherever it stands in the list); a start without one refuses, naming the plugin, rather
 * than sending nothing or falling back to a file.
 */
function requireSmtpDelivery(ctx: PluginContext): void {
  ctx.onStart("ott-smtp-delivery", (c) => {
    if (c.isRegistered(OneTimeTokenDelivery, true)) return;
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      "platform.auth.ott.delivery=smtp needs the mail plugin: install httpPlugin (it includes mailPlugin) " +
        "from @keyward/adapters-http, or register a OneTimeTokenDelivery",
      { details: { key: "platform.auth.ott.delivery", plugin: "mail" } },
    );
  });
}

/** The OTT ports a chain reads, resolved from the container. */
export function ottDependencies(c: DependencyContainer, ctx: PluginContext): OttDependencies {
  return {
    tokenService: c.resolve(OneTimeTokenService),
    delivery: addressedDelivery(c.resolve(OneTimeTokenDelivery), c.resolve(UserRepository)),
    limiter: c.resolve(OttGenerationLimiter),
    throttle: c.resolve(LoginThrottle),
    users: c.resolve(UserRepository),
    clock: c.resolve(Clock),
    logger: c.resolve(Logger),
    publicUrl: publicUrlOf(ctx.properties, c.resolve(ServerAddress)),
  };
}
