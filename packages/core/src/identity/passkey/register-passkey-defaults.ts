import { ServerAddress } from "../../kernel/server-address.js";
import type { DependencyContainer } from "tsyringe";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { EventBus } from "../../kernel/event-bus.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import type { PluginContext } from "../../kernel/plugin.js";
import type { PasskeyLoginOptions } from "../dsl/ott-options.js";
import { UserRepository } from "../users/user-repository.js";
import { InMemoryPasskeyCredentialRepository } from "./in-memory-passkey-credential-repository.js";
import { InMemoryWebAuthnChallengeStore } from "./in-memory-webauthn-challenge-store.js";
import { PasskeyCredentialRepository } from "./passkey-credential-repository.js";
import { PasskeyService } from "./passkey-service.js";
import { passkeyOptionsFromProperties } from "./passkey.properties.js";
import { WebAuthnChallengeStore } from "./webauthn-challenge-store.js";

/** Registers the passkey stores (credentials, challenges) where the host gave none. */
export function registerPasskeyDefaults(ctx: PluginContext): void {
  ctx.registerDefault(PasskeyCredentialRepository, {
    useFactory: (c) => new InMemoryPasskeyCredentialRepository({ clock: c.resolve(Clock) }),
  });
  ctx.registerDefault(WebAuthnChallengeStore, {
    useFactory: (c) => new InMemoryWebAuthnChallengeStore({ clock: c.resolve(Clock) }),
  });
}

/**
 * The passkey service of one chain: its rpName, rpId and allowed origins from the DSL, falling back to
 * `http://localhost:<listening port>` when no origin is configured (WebAuthn refuses an IP address).
 */
export function passkeyServiceFor(
  c: DependencyContainer,
  ctx: PluginContext,
): (options: PasskeyLoginOptions) => PasskeyService {
  return (options) => {
    const configured = [...options.allowedOriginsValue];
    const address = c.resolve(ServerAddress);
    return new PasskeyService({
      rpName: options.rpNameValue,
      rpId: options.rpIdValue,
      allowedOrigins: () => (configured.length > 0 ? configured : [address.localOrigin()]),
      credentials: c.resolve(PasskeyCredentialRepository),
      challenges: c.resolve(WebAuthnChallengeStore),
      users: c.resolve(UserRepository),
      clock: c.resolve(Clock),
      ids: c.resolve(IdGenerator),
      audit: c.resolve(AuditSink),
      events: c.resolve(EventBus),
      ...passkeyOptionsFromProperties(ctx.properties),
    });
  };
}
