export {
  DEFAULT_MAX_SESSIONS,
  InMemorySessionStore,
  type InMemorySessionStoreOptions,
} from "./in-memory-session-store.js";
export {
  DEFAULT_SESSION_COOKIE_NAME,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  SessionManager,
  type SessionManagerOptions,
} from "./session-manager.js";
export { SessionStore, type SessionRecord } from "./session-store.js";
export {
  SESSION_COOKIE_NAME,
  SESSION_PROPERTIES,
  SESSION_TIMEOUT,
  sessionOptionsFromProperties,
} from "./session.properties.js";
