import type { InjectionToken } from "tsyringe";
import type { Authentication } from "../authentication/authentication.js";

/** The primary (username + password) authentication a login endpoint calls; the default is PasswordAuthenticator. */
export interface PrimaryAuthenticator {
  authenticate(input: {
    username: unknown;
    password: unknown;
    remoteAddress: string;
    method: "form" | "rest";
    /** The request's correlation id, for the audit events the sign-in records (absent outside HTTP). */
    correlationId?: string;
  }): Promise<Authentication>;
}

/** DI token of the primary authenticator the form and REST login endpoints call. */
export const PrimaryAuthenticator: InjectionToken<PrimaryAuthenticator> = Symbol.for(
  "platform.PrimaryAuthenticator",
);
