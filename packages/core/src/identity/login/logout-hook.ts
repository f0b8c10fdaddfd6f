import type { InjectionToken } from "tsyringe";
import type { HttpExchange } from "../../web/http-exchange.js";

/**
 * A feature's part of a logout, run by every chain's logout endpoint after the sign-in is ended (the
 * MFA module ends the caller's pending MFA flow and escalation). A family: every member registered
 * under the token runs, in registration order; a member never refuses the logout.
 */
export interface LogoutHook {
  /** Stable id, for diagnostics. */
  readonly id: string;
  onLogout(exchange: HttpExchange): Promise<void>;
}

/** DI token of the LogoutHook family (add members with `ctx.registerMember`). */
export const LogoutHook: InjectionToken<LogoutHook> = Symbol.for("platform.LogoutHook");
