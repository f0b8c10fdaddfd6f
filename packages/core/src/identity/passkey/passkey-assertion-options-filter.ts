import type { HttpExchange } from "../../web/http-exchange.js";
import type { PublicKeyRequestOptionsJson } from "../../web/wire/passkey-messages.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { noStoreJson } from "./passkey-http.js";
import type { PasskeyService } from "./passkey-service.js";
import { setChallengeCookie } from "./webauthn-challenge-cookie.js";

/**
 * `POST <url>` (default `/webauthn/authenticate/options`), body empty or JSON `{ username? }`: answers
 * the assertion options and sets the challenge cookie. Anonymous callers are served (this starts a
 * sign-in); a malformed body or username raises a 4xx PlatformError.
 */
export class PasskeyAssertionOptionsFilter implements SecurityFilter {
  readonly name = "passkey-assertion-options";

  constructor(
    private readonly url: string,
    private readonly service: PasskeyService,
  ) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    if (exchange.path !== this.url || exchange.method !== "POST") return next();
    const fields = await exchange.fields(["json"]);
    const issued = await this.service.authenticationOptions(fields.username);
    setChallengeCookie(exchange, issued.challengeId, this.service.challengeTtlMs);
    const options: PublicKeyRequestOptionsJson = issued.options;
    noStoreJson(exchange, 200, { ...options });
  }
}
