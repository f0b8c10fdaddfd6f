import { isClientError } from "../../web/exchange-error-catalog.js";
import { correlationIdOf } from "../../web/correlation-id.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { type Authentication, setCurrentAuthentication } from "../authentication/authentication.js";
import type { ChainRoute } from "../chain/chain-route.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import { passwordBody, signInContract } from "../identity-contracts.js";
import type { PrimaryAuthenticator } from "./primary-authenticator.js";

/** Options of a username/password processing endpoint (form or REST). */
export interface LoginProcessingOptions {
  /** The route's stable name (`identity.form.login`, `mfa.primary-login`, ...). */
  name: string;
  /** The route's owning feature (`identity.form`, `identity.rest`, `mfa`). */
  feature: string;
  /** POST to this path is a login attempt. */
  url: string;
  method: "form" | "rest";
  /** Body kinds accepted: REST takes JSON only; form takes urlencoded and JSON. */
  accept: ReadonlyArray<"json" | "form">;
  usernameParameter: string;
  passwordParameter: string;
  authenticator: PrimaryAuthenticator;
  repository: SecurityContextRepository;
  successHandler: AuthenticationSuccessHandler;
  failureHandler: AuthenticationFailureHandler;
  context: LoginContext;
}

/**
 * Processes `POST <url>` with a username and password: authenticates, stores the context through the
 * chain's repository (a session repository rotates the session id there), then hands over to the
 * success handler; client errors (bad body, bad credentials, throttling) go to the failure handler.
 */
export class LoginProcessing {
  constructor(private readonly options: LoginProcessingOptions) {}

  /** `POST <url>`. */
  routes(): ChainRoute[] {
    const o = this.options;
    return [
      {
        method: "POST",
        path: o.url,
        name: o.name,
        description: `Signs in with a username and password (${o.accept.join(" or ")} body)`,
        meta: { contract: signInContract(passwordBody(o.usernameParameter, o.passwordParameter), o.accept) },
        feature: o.feature,
        access: "public",
        handler: (exchange) => this.handle(exchange),
      },
    ];
  }

  /** Authenticates the posted credentials and answers through the success or failure handler. */
  async handle(exchange: HttpExchange): Promise<void> {
    const o = this.options;
    let authentication: Authentication;
    try {
      const fields = await exchange.fields(o.accept);
      authentication = await o.authenticator.authenticate({
        username: fields[o.usernameParameter],
        password: fields[o.passwordParameter],
        remoteAddress: exchange.remoteAddress,
        method: o.method,
        correlationId: correlationIdOf(exchange),
      });
      // Inside the try: a refusal at the sign-in checkpoint is answered like any failed sign-in.
      await o.repository.save(exchange, authentication);
    } catch (error) {
      if (!isClientError(error, exchange)) throw error;
      await o.failureHandler.onFailure(exchange, error, o.context);
      return;
    }
    setCurrentAuthentication(exchange, authentication);
    await o.successHandler.onSuccess(exchange, authentication, o.context);
  }
}
