import type { OneTimeTokenGenerationSuccessHandler } from "../ott/one-time-token-generation-success-handler.js";
import type { OneTimeTokenService } from "../ott/one-time-token-service.js";
import { MethodOptions, requirePath } from "./method-options.js";

/** Options of `.ott()` (one-time-token login); the runtime lands with the OTT/passkey issue. */
export class OttLoginOptions extends MethodOptions {
  readonly kind = "ott" as const;
  tokenGeneratingUrlValue: string | undefined;
  defaultSubmitPageUrlValue: string | undefined;
  showDefaultSubmitPageValue = true;
  tokenServiceValue: OneTimeTokenService | undefined;
  tokenGenerationSuccessHandlerValue: OneTimeTokenGenerationSuccessHandler | undefined;

  constructor() {
    super(300);
  }
  /** Token generation URL (default `POST /ott/generate`). */
  tokenGeneratingUrl(url: string): this {
    this.tokenGeneratingUrlValue = requirePath(url, "tokenGeneratingUrl");
    return this;
  }
  /** Built-in submit page URL (default `/login/ott`). */
  defaultSubmitPageUrl(url: string): this {
    this.defaultSubmitPageUrlValue = requirePath(url, "defaultSubmitPageUrl");
    return this;
  }
  /** Whether the built-in submit page is shown (default true). */
  showDefaultSubmitPage(show: boolean): this {
    this.showDefaultSubmitPageValue = show;
    return this;
  }
  /** The OneTimeTokenService to use (else the registered one). */
  tokenService(service: OneTimeTokenService): this {
    this.tokenServiceValue = service;
    return this;
  }
  /** Called after a token is generated, to deliver it. */
  tokenGenerationSuccessHandler(handler: OneTimeTokenGenerationSuccessHandler): this {
    this.tokenGenerationSuccessHandlerValue = handler;
    return this;
  }
}

/** Options of `.passkey()` (WebAuthn login); the runtime lands with the OTT/passkey issue. */
export class PasskeyLoginOptions extends MethodOptions {
  readonly kind = "passkey" as const;
  rpNameValue = "platform-identity";
  rpIdValue = "localhost";
  readonly allowedOriginsValue = new Set<string>();
  assertionOptionsEndpointValue: string | undefined;

  constructor() {
    super(400);
  }
  /** Relying party display name (default `platform-identity`). */
  rpName(name: string): this {
    this.rpNameValue = name;
    return this;
  }
  /** Relying party id (default `localhost`). */
  rpId(id: string): this {
    this.rpIdValue = id;
    return this;
  }
  /** Allowed origins, as a set or varargs (default `http://localhost:<port>`). */
  allowedOrigins(...origins: (string | Iterable<string>)[]): this {
    for (const o of origins) for (const x of typeof o === "string" ? [o] : o) this.allowedOriginsValue.add(x);
    return this;
  }
  /** Assertion options endpoint (default `/webauthn/authenticate/options`). */
  assertionOptionsEndpoint(url: string): this {
    this.assertionOptionsEndpointValue = requirePath(url, "assertionOptionsEndpoint");
    return this;
  }
}
