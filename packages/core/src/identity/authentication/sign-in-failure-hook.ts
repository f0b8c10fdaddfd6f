import type { InjectionToken } from "tsyringe";

/**
 * A feature told of a wrong password for a known user (the MFA module records it in the sign-in
 * history its adaptive policy reads). A family: every member runs, in registration order; a member
 * that fails is ignored, so it never changes the sign-in's answer.
 */
export interface SignInFailureHook {
  /** Stable id, for diagnostics. */
  readonly id: string;
  onKnownUserFailure(userId: string): Promise<void>;
}

/** DI token of the SignInFailureHook family (add members with `ctx.registerMember`). */
export const SignInFailureHook: InjectionToken<SignInFailureHook> = Symbol.for("platform.SignInFailureHook");
