import { ServerAddress } from "../../kernel/server-address.js";
import type { DependencyContainer } from "tsyringe";
import { Clock } from "../../kernel/clock.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { Logger } from "../../kernel/logger.js";
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
  ctx.registerDefault(OneTimeTokenDelivery, {
    useFactory: () =>
      settings.delivery === "console"
        ? new ConsoleOneTimeTokenDelivery()
        : new OutboxOneTimeTokenDelivery({ file: settings.outboxFile }),
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
