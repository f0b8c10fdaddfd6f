import { Clock } from "../../kernel/clock.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import type { PluginContext } from "../../kernel/plugin.js";
import { HttpSessionSecurityContextRepository } from "../context/http-session-security-context-repository.js";
import { SecurityContextRepository } from "../context/security-context-repository.js";
import { CsrfTokenRepository } from "../csrf/csrf-token-repository.js";
import { SessionCsrfTokenRepository } from "../csrf/session-csrf-token-repository.js";
import { InMemorySessionStore } from "./in-memory-session-store.js";
import { SessionManager } from "./session-manager.js";
import { sessionOptionsFromProperties } from "./session.properties.js";
import { SessionStore } from "./session-store.js";

/** The session defaults: the store, the manager, the CSRF token repository and the context repository. */
export function registerSessionDefaults(ctx: PluginContext): void {
  const { properties } = ctx;
  ctx.registerDefault(SessionStore, {
    useFactory: (c) => new InMemorySessionStore({ clock: c.resolve(Clock) }),
  });
  ctx.registerDefault(SessionManager, {
    useFactory: (c) =>
      new SessionManager({
        store: c.resolve(SessionStore),
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        ...sessionOptionsFromProperties(properties),
      }),
  });
  ctx.registerDefault(CsrfTokenRepository, {
    useFactory: (c) =>
      new SessionCsrfTokenRepository({
        sessions: c.resolve(SessionManager),
        ids: c.resolve(IdGenerator),
      }),
  });
  ctx.registerDefault(SecurityContextRepository, {
    useFactory: (c) =>
      new HttpSessionSecurityContextRepository(c.resolve(SessionManager), c.resolve(CsrfTokenRepository)),
  });
}
