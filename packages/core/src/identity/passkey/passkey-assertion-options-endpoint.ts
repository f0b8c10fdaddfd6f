import type { HttpExchange } from "../../web/http-exchange.js";
import type { PublicKeyRequestOptionsJson } from "../../web/wire/passkey-messages.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { noStoreJson } from "./passkey-http.js";
import type { PasskeyService } from "./passkey-service.js";
import { setChallengeCookie } from "./webauthn-challenge-cookie.js";
import { IDENTITY_CONTRACTS } from "../identity-contracts.js";

/**
 * `POST <url>` (default `/webauthn/authenticate/options`), body empty or JSON `{ username? }`: answers
 * the assertion options and sets the challenge cookie. Anonymous callers are served (this starts a
 * sign-in); a malformed body or username raises a 4xx PlatformError.
 */
export class PasskeyAssertionOptionsEndpoint {
  constructor(
    private readonly url: string,
    private readonly service: PasskeyService,
  ) {}

  /** `POST <url>`. */
  routes(): ChainRoute[] {
    return [
      {
        method: "POST",
        path: this.url,
        name: "identity.passkey.assertion-options",
        meta: { contract: IDENTITY_CONTRACTS.passkeyOptions },
        description: "WebAuthn assertion options for a passkey sign-in; sets the challenge cookie",
        feature: "identity.passkey",
        access: "public",
        handler: (exchange) => this.handle(exchange),
      },
    ];
  }

  /** Answers the options and sets the challenge cookie. */
  async handle(exchange: HttpExchange): Promise<void> {
    const fields = await exchange.fields(["json"]);
    const issued = await this.service.authenticationOptions(fields.username);
    setChallengeCookie(exchange, issued.challengeId, this.service.challengeTtlMs);
    const options: PublicKeyRequestOptionsJson = issued.options;
    noStoreJson(exchange, 200, { ...options });
  }
}
