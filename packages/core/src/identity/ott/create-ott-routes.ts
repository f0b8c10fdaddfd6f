import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { ChainRoute } from "../chain/chain-route.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import type { LoginThrottle } from "../throttle/login-throttle.js";
import type { UserRepository } from "../users/user-repository.js";
import type { OneTimeTokenGenerationSuccessHandler } from "./one-time-token-generation-success-handler.js";
import type { OneTimeTokenService } from "./one-time-token-service.js";
import { OttGenerateEndpoint } from "./ott-generate-endpoint.js";
import type { OttGenerationLimiter } from "./ott-generation-limiter.js";
import { OttLoginEndpoint } from "./ott-login-endpoint.js";
import { OttSubmitPage } from "./ott-submit-page-endpoint.js";

/** Everything the OTT routes of one chain need, in one object. */
export interface OttRoutesOptions {
  /** `POST` here asks for a token (DSL tokenGeneratingUrl; default `/ott/generate`). */
  generateUrl: string;
  /** `GET` here serves the built-in page; magic links point here (DSL defaultSubmitPageUrl; default `/login/ott`). */
  submitPageUrl: string;
  /** Whether the built-in page is served (DSL showDefaultSubmitPage; default true). */
  showSubmitPage: boolean;
  /** `POST` here signs in with a token (DSL loginProcessingUrl; default `/login/ott`). */
  loginProcessingUrl: string;
  tokenService: OneTimeTokenService;
  generationSuccessHandler: OneTimeTokenGenerationSuccessHandler;
  limiter: OttGenerationLimiter;
  /** Counts failed token submissions per address (shared with the password login's address counter). */
  throttle: LoginThrottle;
  users: UserRepository;
  clock: Clock;
  audit: AuditSink;
  /** The chain's context repository (session, or null for `.oauth2()`). */
  repository: SecurityContextRepository;
  successHandler: AuthenticationSuccessHandler;
  /** Answers failed sign-ins and refused generation requests; browsers go to `context.failureUrl ?? context.loginPage?error`. */
  failureHandler: AuthenticationFailureHandler;
  /** Use the submit page as `loginPage`, so browser failures land on it with `?error`. */
  context: LoginContext;
  /** Whether the chain checks CSRF (session chains): the page then carries the token. */
  csrfEnabled: boolean;
  /** Concurrent token submissions per address before 429. Default 32. */
  maxPendingAttemptsPerAddress?: number;
}

/**
 * The routes of a `.ott()` chain, in order: `identity.ott.generate`, `identity.ott.submit-page` (GET
 * and HEAD, when shown), `identity.ott.login`.
 */
export function createOttRoutes(options: OttRoutesOptions): ChainRoute[] {
  const routes: ChainRoute[] = [
    ...new OttGenerateEndpoint({
      url: options.generateUrl,
      tokenService: options.tokenService,
      generationSuccessHandler: options.generationSuccessHandler,
      limiter: options.limiter,
      users: options.users,
      audit: options.audit,
      failureHandler: options.failureHandler,
      context: options.context,
    }).routes(),
  ];
  if (options.showSubmitPage) {
    routes.push(
      ...new OttSubmitPage({
        url: options.submitPageUrl,
        processingUrl: options.loginProcessingUrl,
        generateUrl: options.generateUrl,
        csrfEnabled: options.csrfEnabled,
      }).routes(),
    );
  }
  routes.push(
    ...new OttLoginEndpoint({
      url: options.loginProcessingUrl,
      tokenService: options.tokenService,
      users: options.users,
      throttle: options.throttle,
      clock: options.clock,
      audit: options.audit,
      repository: options.repository,
      successHandler: options.successHandler,
      failureHandler: options.failureHandler,
      context: options.context,
      ...(options.maxPendingAttemptsPerAddress === undefined
        ? {}
        : { maxPendingAttemptsPerAddress: options.maxPendingAttemptsPerAddress }),
    }).routes(),
  );
  return routes;
}
