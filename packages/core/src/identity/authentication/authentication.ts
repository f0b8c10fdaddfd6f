import type { HttpExchange } from "../../web/http-exchange.js";

/** How a principal proved who they are. */
export type AuthenticationMethod = "form" | "rest" | "ott" | "passkey" | "mfa" | "bearer";

/** One proof the user gave, for `amr` claims and step-up decisions. */
export interface AuthenticationFactor {
  /** `pwd`, `otp`, `hwk` (passkey) as in RFC 8176 amr values. */
  type: "pwd" | "otp" | "hwk";
  /** Epoch milliseconds. */
  at: number;
}

/** An authenticated principal. Immutable; a new factor makes a new object. */
export interface Authentication {
  readonly userId: string;
  readonly username: string;
  readonly authorities: readonly string[];
  /** The chain method that signed the user in (`bearer` for a request carrying an access token). */
  readonly method: AuthenticationMethod;
  /** When the primary sign-in happened (epoch ms); `auth_time` of issued tokens. */
  readonly authenticatedAt: number;
  readonly factors: readonly AuthenticationFactor[];
  /** The account's security stamp when the user proved who they are (see AccountStanding); absent when it had none. */
  readonly securityStamp?: string | undefined;
}

/**
 * The exchange attribute holding the request's authentication (currentAuthentication). Internal to
 * identity: the security-context filter sets it inline, on every request.
 */
export const AUTHENTICATION_ATTRIBUTE = "platform.authentication";
const AUTHENTICATION = AUTHENTICATION_ATTRIBUTE;

/** The authentication of this request, if any (set by the context-loading filter or a login). */
export function currentAuthentication(exchange: HttpExchange): Authentication | undefined {
  return exchange.attributes.get(AUTHENTICATION) as Authentication | undefined;
}

/** Sets (or clears, with undefined) the authentication of this request. */
export function setCurrentAuthentication(
  exchange: HttpExchange,
  authentication: Authentication | undefined,
): void {
  if (authentication) exchange.attributes.set(AUTHENTICATION, authentication);
  else exchange.attributes.delete(AUTHENTICATION);
}

/** The `securityStamp` part of a new sign-in's Authentication: the account's stamp, or nothing when it has none. */
export function stampOf(account: { readonly securityStamp?: string | undefined }): {
  securityStamp?: string;
} {
  return account.securityStamp === undefined ? {} : { securityStamp: account.securityStamp };
}
