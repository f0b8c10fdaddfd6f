import type { HttpExchange } from "../../web/http-exchange.js";
import { type Authentication, setCurrentAuthentication } from "../authentication/authentication.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { correlated } from "../events/correlated.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import { isClientError } from "../../web/exchange-error-catalog.js";
import type { PasskeyService } from "./passkey-service.js";
import { takeChallengeCookie } from "./webauthn-challenge-cookie.js";
import { IDENTITY_CONTRACTS } from "../identity-contracts.js";

/** Options of the passkey sign-in processing endpoint. */
export interface PasskeyLoginEndpointOptions {
  /** POST to this path is a passkey sign-in (default `/login/webauthn`). */
  url: string;
  service: PasskeyService;
  repository: SecurityContextRepository;
  successHandler: AuthenticationSuccessHandler;
  failureHandler: AuthenticationFailureHandler;
  context: LoginContext;
}

/**
 * Processes `POST <url>` whose JSON body is the browser's AuthenticationResponseJSON: verifies it
 * against the challenge named by this browser's cookie (spent either way), stores the context through
 * the chain's repository (a session repository rotates the session there), then hands over to the
 * success handler; client errors go to the failure handler, as the password login endpoint does.
 */
export class PasskeyLoginEndpoint {
  constructor(private readonly options: PasskeyLoginEndpointOptions) {}

  /** `POST <url>`. */
  routes(): ChainRoute[] {
    return [
      {
        method: "POST",
        path: this.options.url,
        name: "identity.passkey.login",
        meta: { contract: IDENTITY_CONTRACTS.passkeyLogin },
        description: "Signs in with a passkey assertion (AuthenticationResponseJSON)",
        feature: "identity.passkey",
        access: "public",
        handler: (exchange) => this.handle(exchange),
      },
    ];
  }

  /** Verifies the assertion and answers through the success or failure handler. */
  async handle(exchange: HttpExchange): Promise<void> {
    const o = this.options;
    let authentication: Authentication;
    try {
      const challengeId = takeChallengeCookie(exchange);
      const body = await exchange.fields(["json"]);
      authentication = await o.service.verifyAuthentication(challengeId, body, {
        remoteAddress: exchange.remoteAddress,
        ...correlated(exchange),
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
