import type { InjectionToken } from "tsyringe";
import type { RequestMatcher } from "../../web/request-matcher.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type { FormLoginInternals } from "../dsl/form-login-options.js";
import type { ChainDefinition } from "../dsl/security-registry.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import type { HttpSecurity } from "../http-security/http-security.js";
import type { ChainDependencies } from "./chain-dependencies.js";
import type { ChainRoute } from "./chain-route.js";
import type { SecurityFilter } from "./security-filter.js";

/** The chain's default handlers, which a method may build on (an MFA flow falls back to them). */
export interface SignInHandlers {
  readonly successHandler: AuthenticationSuccessHandler;
  readonly failureHandler: AuthenticationFailureHandler;
}

/** What a method's routes (and filters) are built from, once the chain's common parts exist. */
export interface SignInFilterInput {
  readonly definition: ChainDefinition;
  readonly http: HttpSecurity;
  readonly deps: ChainDependencies;
  /** The chain's context repository (status-checked; gated by the chain hooks where they apply). */
  readonly repository: SecurityContextRepository;
  readonly successHandler: AuthenticationSuccessHandler;
  readonly failureHandler: AuthenticationFailureHandler;
  readonly context: LoginContext;
  readonly internals: FormLoginInternals;
  readonly processingUrl: string;
  readonly loginPage: string;
  readonly stateless: boolean;
  /** CSRF tokens are checked on this chain (a session chain with CSRF on). */
  readonly csrfEnabled: boolean;
}

/** One chain's sign-in part, planned by its method before the chain is assembled. */
export interface SignInPlan {
  /** The page unauthenticated browser requests are sent to. */
  readonly loginPage: string;
  /** Where the primary credentials are posted. */
  readonly processingUrl: string;
  /** Unauthenticated requests are redirected to the login page (false: answered 401, as JSON). */
  readonly redirectsToLoginPage: boolean;
  /** The logout URL the method advertises, when not the chain's default. */
  readonly logoutUrl?: string | undefined;
  /** Where a logout without its own success URL goes (default `<loginPage>?logout`). */
  readonly logoutSuccessUrl?: string | undefined;
  /** The chain's matcher when the DSL gave none (default: every request). */
  readonly matcher?: RequestMatcher | undefined;
  /**
   * The method's entry points (processing URLs, built-in pages): routes of the chain, served at the
   * chain's entry point (after CSRF, before authorization).
   */
  routes?(input: SignInFilterInput): ChainRoute[];
  /**
   * Cross-cutting filters of the method, if any (none of the built-in methods has one), placed
   * after CSRF and before the chain's entry points. Endpoints are routes, not filters.
   */
  filters?(input: SignInFilterInput): SecurityFilter[];
}

/**
 * A sign-in method a plugin contributes: the DSL kind it assembles (`form`, `rest`, `ott`,
 * `passkey`, `mfa`, or a host's own). A family: every plugin adds its methods with
 * `ctx.registerMember(SignInMethod, …)`; a chain whose kind no member assembles refuses the start.
 */
export interface SignInMethod {
  /** The DSL kind (`ChainDefinition.kind`). */
  readonly kind: string;
  /**
   * The method runs its own second-factor flow: its chains are assembled before the others, and the
   * chain hooks' `afterPrimaryAuthentication` does not apply to them. Honoured only when a ChainHook
   * names this kind in `multiFactorKinds` (it gates the other chains into these flows); otherwise the
   * start is refused, so the flag alone can never exempt a method from the gate.
   */
  readonly multiFactor?: boolean;
  /**
   * A plugin's default: any other member of the same kind replaces it, wherever the two stand in the
   * plugin list. Among non-defaults (or among defaults) the later member wins.
   */
  readonly builtIn?: boolean;
  /** Plans one chain of this method. */
  plan(definition: ChainDefinition, handlers: SignInHandlers): SignInPlan;
}

/** DI token of the SignInMethod family. */
export const SignInMethod: InjectionToken<SignInMethod> = Symbol.for("platform.SignInMethod");
