import type { AccountStanding } from "../users/standing/account-standing.js";
import type { DependencyContainer } from "tsyringe";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import type { LogoutHook } from "../login/logout-hook.js";
import type { ChainHook } from "./chain-hook.js";
import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import type { PasskeyLoginOptions } from "../dsl/ott-options.js";
import type { PasskeyService } from "../passkey/passkey-service.js";
import type { OneTimeTokenDelivery } from "../ott/one-time-token-delivery.js";
import type { OneTimeTokenService } from "../ott/one-time-token-service.js";
import type { OttGenerationLimiter } from "../ott/ott-generation-limiter.js";
import type { LoginThrottle } from "../throttle/login-throttle.js";
import type { UserRepository } from "../users/user-repository.js";
import type { BearerAuthenticator } from "../context/security-context-filter.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type { CsrfTokenRepository } from "../csrf/csrf-token-repository.js";
import type { TokenIssuer } from "../handlers/oauth2-handlers.js";
import type { PrimaryAuthenticator } from "../login/primary-authenticator.js";
import type { TokenRevoker } from "../login/logout-endpoint.js";
import type { TokenRefresher } from "../login/token-endpoints.js";
import type { RouteTable } from "../../web/route-table.js";
import type { SessionManager } from "../session/session-manager.js";

/** Everything a token chain needs from the token service. */
export type ChainTokenService = BearerAuthenticator & TokenIssuer & TokenRefresher & TokenRevoker;

/** What OTT chains read (resolved only when an OTT chain is registered). */
export interface OttDependencies {
  tokenService: OneTimeTokenService;
  delivery: OneTimeTokenDelivery;
  limiter: OttGenerationLimiter;
  throttle: LoginThrottle;
  users: UserRepository;
  clock: Clock;
  logger: Logger;
  /** The public base URL magic links point at (configuration, else the local origin once listening). */
  publicUrl: () => string;
}

/** The ports chain assembly reads (resolved from the platform's container by the identity plugin). */
export interface ChainDependencies {
  authenticator: PrimaryAuthenticator;
  sessions: SessionManager;
  csrfTokens: CsrfTokenRepository;
  /** The session chains' context repository (HttpSession by default; a host may replace it). */
  sessionRepository: SecurityContextRepository;
  tokens: ChainTokenService;
  audit: AuditSink;
  /** Where sign-ins and denials are published (identity's events); none when absent. */
  events?: EventBus;
  /** OTT ports, resolved lazily. */
  ott: () => OttDependencies;
  /** The platform clock (step-up rules read it). */
  clock: Clock;
  /** The SubjectStatusCheck family at the sign-in, refresh, step-up and `/api/me` checkpoints. */
  statusCheck: SubjectStatusGate;
  /**
   * The same family at the `request` checkpoint only (subjectStatusGateAt), which every
   * authenticated request passes; absent: `statusCheck`.
   */
  requestStatusCheck?: SubjectStatusGate;
  /** Whether a loaded sign-in still stands (account enabled, same security stamp), on every request. */
  standing: AccountStanding;
  /** The LogoutHook family (features' parts of a logout), read at logout time. */
  logoutHooks: () => readonly LogoutHook[];
  /** The ChainHook family (features' hooks on chains they do not own), read once they are complete. */
  hooks: () => readonly ChainHook[];
  /** Builds the passkey service of one chain from its DSL options. */
  passkeyService: (options: PasskeyLoginOptions) => PasskeyService;
  /** The platform's route table: each chain declares its routes there under its id. */
  routeTable: RouteTable;
  /** The platform's container, for ContainerAware managers and filters of the DSL. */
  container?: DependencyContainer;
}
