import type { InjectionToken } from "tsyringe";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";

/** Where a chain keeps the authentication between requests: the session, nowhere (`null`) or a host's. */
export interface SecurityContextRepository {
  /** A stable name for diagnostics (`session`, `null`, or a host's). */
  readonly name: string;
  /**
   * The authentication stored for this request's client, if any: a promise of it, or, when the
   * repository has it at hand (the session repository once the request's session is known), the
   * answer itself, which the SecurityContextFilter then reads without an async step.
   */
  load(exchange: HttpExchange): Authentication | undefined | Promise<Authentication | undefined>;
  /** Stores a new authentication after a login (a session repository rotates the session id here). */
  save(exchange: HttpExchange, authentication: Authentication): Promise<void>;
  /** Forgets the authentication (logout). */
  clear(exchange: HttpExchange): Promise<void>;
}

/** DI token of the SecurityContextRepository port (a host default for every session chain). */
export const SecurityContextRepository: InjectionToken<SecurityContextRepository> = Symbol.for(
  "platform.SecurityContextRepository",
);

/** Keeps nothing: stateless chains (`.oauth2()`) and intermediate MFA steps. */
export class NullSecurityContextRepository implements SecurityContextRepository {
  readonly name = "null";
  async load(): Promise<Authentication | undefined> {
    return undefined;
  }
  async save(): Promise<void> {}
  async clear(): Promise<void> {}
}
