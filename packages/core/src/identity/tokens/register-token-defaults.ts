import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { Logger } from "../../kernel/logger.js";
import { ServerAddress } from "../../kernel/server-address.js";
import { RouteTable } from "../../web/route-table.js";
import { publicUrlOf } from "../public-url.properties.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { ConfiguredJwtKeySource } from "./configured-jwt-key-source.js";
import { discoveryRoutes } from "./discovery-routes.js";
import { InMemoryRefreshTokenStore } from "./in-memory-refresh-token-store.js";
import { InMemoryRevokedAccessTokenStore } from "./in-memory-revoked-token-store.js";
import { JwtKeySource } from "./jwt-key-source.js";
import { jwtOptionsFromProperties } from "./jwt-properties.js";
import { RefreshTokenStore } from "./refresh-token-store.js";
import { RevokedAccessTokenStore } from "./revoked-token-store.js";
import { TokenService } from "./token-service.js";

/**
 * The token defaults (refresh-token and revoked-token stores, the JWT key source) and, at start, the
 * TokenService on the loaded keys (unless the host registered one) and the discovery routes that
 * publish them (the JWK set and the RFC 8414 metadata; a host's own TokenService publishes its own).
 */
export function registerTokenDefaults(ctx: PluginContext): void {
  const { properties } = ctx;
  ctx.registerDefault(RefreshTokenStore, {
    useFactory: (c) => new InMemoryRefreshTokenStore({ clock: c.resolve(Clock) }),
  });
  ctx.registerDefault(RevokedAccessTokenStore, {
    useFactory: (c) => new InMemoryRevokedAccessTokenStore({ clock: c.resolve(Clock) }),
  });
  ctx.registerDefault(JwtKeySource, {
    useFactory: (c) => {
      const jwt = jwtOptionsFromProperties(properties);
      const clock = c.resolve(Clock);
      return new ConfiguredJwtKeySource(
        { ...jwt, logger: c.resolve(Logger) },
        {
          ring: c.resolve(KeyRing),
          now: () => clock.now(),
          rotationMs: jwt.keyRotationMs,
          tokenLifetimeMs: jwt.accessTokenTtlMs + jwt.clockSkewMs,
        },
      );
    },
  });
  ctx.onStart("token-keys", async (c) => {
    if (c.isRegistered(TokenService, false)) return;
    const jwt = jwtOptionsFromProperties(properties);
    const keys = await c.resolve(JwtKeySource).load();
    c.registerInstance(
      TokenService,
      new TokenService({
        ...jwt,
        keys,
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        refreshTokens: c.resolve(RefreshTokenStore),
        revokedAccessTokens: c.resolve(RevokedAccessTokenStore),
        audit: c.resolve(AuditSink),
      }),
    );
    if (!c.isRegistered(RouteTable, true)) return;
    const table = c.resolve(RouteTable);
    const publicUrl = publicUrlOf(properties, c.resolve(ServerAddress));
    for (const route of discoveryRoutes({ keys, issuer: jwt.issuer, publicUrl })) table.add(route);
  });
}
