import type { AuditSink } from "../../kernel/audit-sink.js";
import type { BearerAuthenticator } from "../context/security-context-filter.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type { CsrfTokenRepository } from "../csrf/csrf-token-repository.js";
import type { TokenIssuer } from "../handlers/oauth2-handlers.js";
import type { PrimaryAuthenticator } from "../login/login-processing-filter.js";
import type { TokenRevoker } from "../login/logout-filter.js";
import type { TokenRefresher } from "../login/token-endpoints-filter.js";
import type { SessionManager } from "../session/session-manager.js";

/** Everything a token chain needs from the token service. */
export type ChainTokenService = BearerAuthenticator & TokenIssuer & TokenRefresher & TokenRevoker;

/** The ports chain assembly reads (resolved from the platform's container by the identity plugin). */
export interface ChainDependencies {
  authenticator: PrimaryAuthenticator;
  sessions: SessionManager;
  csrfTokens: CsrfTokenRepository;
  /** The session chains' context repository (HttpSession by default; a host may replace it). */
  sessionRepository: SecurityContextRepository;
  tokens: ChainTokenService;
  audit: AuditSink;
}
