import type { InjectionToken } from "tsyringe";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
} from "../handlers/authentication-handlers.js";
import type { StepUpStarter } from "../http-security/authorization-filter.js";

/** A single-factor chain's sign-in parts, as a hook may wrap them. */
export interface PrimaryAuthenticationParts {
  readonly repository: SecurityContextRepository;
  readonly successHandler: AuthenticationSuccessHandler;
  readonly failureHandler: AuthenticationFailureHandler;
}

/** The chain a hook is asked about. */
export interface HookedChain {
  readonly state: "session" | "oauth2";
  readonly stateless: boolean;
}

/**
 * What a feature attaches to every chain it does not own (the MFA plugin: its no-bypass gate after
 * primary authentication, and step-up when an authenticated caller is denied). A family: hooks are
 * read once the multi-factor chains are assembled, and applied in registration order.
 */
export interface ChainHook {
  readonly id: string;
  /**
   * The multi-factor sign-in methods (by kind) whose flows this hook hands the other chains' users
   * to. A `multiFactor` method no hook names refuses the start.
   */
  readonly multiFactorKinds?: readonly string[];
  /**
   * After a single-factor chain's primary authentication: may wrap where the sign-in is saved and
   * its success handler (return undefined to leave the chain as it is).
   */
  afterPrimaryAuthentication?(
    chain: HookedChain,
    parts: PrimaryAuthenticationParts,
  ): Pick<PrimaryAuthenticationParts, "repository" | "successHandler"> | undefined;
  /** When an authenticated caller is denied: may start a step-up and answer with its challenge. */
  readonly onAccessDenied?: StepUpStarter | undefined;
}

/** DI token of the ChainHook family. */
export const ChainHook: InjectionToken<ChainHook> = Symbol.for("platform.ChainHook");
