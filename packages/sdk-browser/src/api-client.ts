import { parseAnswer, sameOriginUrl, stringOr } from "./api-answer.js";
import { CSRF_PARAMETER, csrfToken } from "./csrf.js";
import { deviceId } from "./device-id.js";
import type { FactorEndpoint } from "./factor-endpoints.js";
import { DEFAULT_MFA_CONFIG, mergeMfaConfig } from "./mfa-config.js";
import { MfaSessionState } from "./mfa-session-state.js";
import { readPageConfig } from "./page-config.js";
import { PlatformMfaError } from "./platform-mfa-error.js";
import { markSdkRequest } from "./sdk-request.js";
import { TokenStore } from "./token-store.js";
import type {
  AuthenticationResult,
  FactorResult,
  FactorType,
  MfaClientState,
  MfaConfig,
  MfaConfigOverrides,
  MfaStatus,
  PublicKeyCredentialJson,
  PublicKeyRequestOptionsJson,
  VerifyResult,
} from "./types.js";
import { credentialToJson, isBrowserCredential } from "./webauthn.js";

/** The requests of the ApiClient, as named to observers. */
export type ApiOperation =
  | "config"
  | "login"
  | "loginForm"
  | "selectFactor"
  | "requestOttCode"
  | "verifyOtt"
  | "verifyFactor"
  | "getPasskeyOptions"
  | "verifyPasskey"
  | "passkeyLoginOptions"
  | "passkeyLogin"
  | "cancel"
  | "status"
  | "logout";

/** Told about every answer and every failure of the ApiClient (the Client turns them into events). */
export interface ApiClientObserver {
  answer?(operation: ApiOperation, result: AuthenticationResult): void;
  failure?(operation: ApiOperation, error: PlatformMfaError): void;
}

/** Options of `init`. */
export interface InitOptions {
  /** An injected URL set (merged over the defaults): no `GET /api/mfa/config`. */
  config?: MfaConfigOverrides;
  /** Where to GET the configuration when neither an injected nor a page configuration exists. */
  configUrl?: string;
}

/** Options of the ApiClient. */
export interface ApiClientOptions {
  /** Where tokens live (the Client passes its own); default: memory. */
  tokenStore?: TokenStore;
  /** The fetch to use; default: the page's `fetch` at call time. */
  fetch?: typeof fetch;
  /** Told about answers and failures. */
  observer?: ApiClientObserver;
}

/** One request of the ApiClient. */
export interface ApiRequest {
  method?: "GET" | "POST";
  /** A JSON body. */
  json?: unknown;
  /** An urlencoded body. */
  form?: Record<string, string>;
  /** Extra headers (they win over the SDK's own, except Accept). */
  headers?: Record<string, string>;
}

/**
 * The low-level client of the platform's authentication and MFA endpoints (`client.apiClient`). Every
 * request goes to a URL of the flow's configuration, same-origin only, with `credentials:
 * "same-origin"`, `Accept: application/json`, the page's CSRF header on POSTs, the tracked
 * `X-MFA-Session-Id` (and `X-MFA-Step-Id`) and the browser's `X-Device-Id`. Answers are parsed JSON;
 * a non-2xx answer throws a {@link PlatformMfaError} with the platform `code`, the status and the body.
 */
export class ApiClient {
  /** Where the tokens of `.oauth2()` answers are kept. */
  readonly tokens: TokenStore;
  private readonly tracked = new MfaSessionState();
  private readonly fetchFn: typeof fetch;
  private readonly observer: ApiClientObserver | undefined;
  private current: MfaConfig | undefined;
  private loading: Promise<MfaConfig> | undefined;
  private generation = 0;
  private stepUp: { authorization: string | undefined } | undefined;

  constructor(options: ApiClientOptions = {}) {
    this.tokens = options.tokenStore ?? new TokenStore("memory");
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.observer = options.observer;
  }

  /** The flow's URL set once initialized. */
  get config(): MfaConfig | undefined {
    return this.current;
  }

  /** A copy of the tracked MFA state. */
  get state(): MfaClientState {
    return this.tracked.snapshot();
  }

  /**
   * Loads the flow's URL set: an injected `options.config`, else the page's
   * `#platform-page-config` (its `data-mfa-config` JSON and URL attributes), else
   * `GET /api/mfa/config` (or `options.configUrl`, or the page's `data-config-url`). The page's
   * `data-mfa-session-id` is adopted. A later `init` wins over an earlier one still loading.
   */
  init(options: InitOptions = {}): Promise<MfaConfig> {
    const generation = ++this.generation;
    const load = this.load(options).then((config) => {
      if (generation === this.generation) {
        this.current = config;
        this.loading = undefined;
      }
      return config;
    });
    this.loading = load;
    load.catch(() => {
      if (generation === this.generation) this.loading = undefined;
    });
    return load;
  }

  /** The URL set, loading it when no `init` ran or the last one failed. */
  async ensureConfig(): Promise<MfaConfig> {
    if (this.loading) {
      try {
        return await this.loading;
      } catch {
        // The last load failed: use an earlier configuration, or try again.
      }
    }
    return this.current ?? this.init();
  }

  /** REST primary: `POST primary.restLoginProcessing` JSON `{ username, password }`. */
  async login(username: string, password: string): Promise<AuthenticationResult> {
    const config = await this.ensureConfig();
    this.tracked.startPrimary(username);
    return this.send("login", config.primary.restLoginProcessing, { json: { username, password } });
  }

  /** Form primary: `POST primary.formLoginProcessing` urlencoded `username, password, _csrf`. */
  async loginForm(username: string, password: string): Promise<AuthenticationResult> {
    const config = await this.ensureConfig();
    this.tracked.startPrimary(username);
    const form: Record<string, string> = { username, password };
    const csrf = csrfToken();
    if (csrf) form[CSRF_PARAMETER] = csrf.token;
    return this.send("loginForm", config.primary.formLoginProcessing, { form });
  }

  /** `POST api.selectFactor` JSON `{ factorType }`. */
  async selectFactor(factorType: FactorType): Promise<FactorResult> {
    const config = await this.ensureConfig();
    return this.send("selectFactor", config.api.selectFactor, { json: { factorType } });
  }

  /** `POST ott.codeGeneration`: a new code (also "resend"; the previous code dies). */
  async requestOttCode(): Promise<AuthenticationResult> {
    const config = await this.ensureConfig();
    return this.send("requestOttCode", config.ott.codeGeneration, { json: {} });
  }

  /** `POST ott.loginProcessing` JSON `{ token }` (plus `username` when known). */
  async verifyOtt(code: string, username?: string): Promise<VerifyResult> {
    const config = await this.ensureConfig();
    const who = username ?? this.tracked.username;
    const json = who === undefined ? { token: code } : { token: code, username: who };
    return this.send("verifyOtt", config.ott.loginProcessing, { json });
  }

  /**
   * A plugin code factor (`TOTP`, `RECOVERY_CODE`): `POST` JSON `{ token }` (plus `username` when
   * known, as `verifyOtt`) to the factor's own answer URL, which the flow's last answer named in
   * `endpoints.factors` (select the factor first). A type no answer named a code URL for is refused
   * here with `FACTOR_NOT_AVAILABLE`, without a request.
   */
  async verifyFactor(factorType: FactorType, code: string, username?: string): Promise<VerifyResult> {
    const endpoint = this.tracked.factorEndpoint(factorType);
    if (endpoint?.kind !== "code") {
      const error = new PlatformMfaError(
        "FACTOR_NOT_AVAILABLE",
        `The flow named no code factor ${JSON.stringify(String(factorType).slice(0, 64))}`,
      );
      this.observer?.failure?.("verifyFactor", error);
      throw error;
    }
    const who = username ?? this.tracked.username;
    const json = who === undefined ? { token: code } : { token: code, username: who };
    return this.send("verifyFactor", endpoint.verify, { json });
  }

  /** A plugin factor's kind and answer URL as the flow's last answer named them (`endpoints.factors`). */
  factorEndpoint(factorType: FactorType): FactorEndpoint | undefined {
    return this.tracked.factorEndpoint(factorType);
  }

  /** `POST webauthn.assertionOptions`: assertion options bound to the MFA session. */
  async getPasskeyOptions(): Promise<PublicKeyRequestOptionsJson> {
    const config = await this.ensureConfig();
    const options = await this.send("getPasskeyOptions", config.webauthn.assertionOptions, { json: {} });
    return options as PublicKeyRequestOptionsJson;
  }

  /** `POST webauthn.assertionVerify` with the assertion (a browser credential or its JSON). */
  async verifyPasskey(
    publicKeyCredential: PublicKeyCredential | PublicKeyCredentialJson,
  ): Promise<VerifyResult> {
    const config = await this.ensureConfig();
    const json = isBrowserCredential(publicKeyCredential)
      ? credentialToJson(publicKeyCredential)
      : publicKeyCredential;
    return this.send("verifyPasskey", config.webauthn.assertionVerify, { json });
  }

  /**
   * Passkey sign-in (the passkey chain, not the MFA factor): `POST passkeyLogin.assertionOptions`,
   * usernameless unless a `username` is given (autofill requests never name one).
   */
  async getPasskeyLoginOptions(username?: string): Promise<PublicKeyRequestOptionsJson> {
    const config = await this.ensureConfig();
    const json = username ? { username } : {};
    const options = await this.send("passkeyLoginOptions", config.passkeyLogin.assertionOptions, { json });
    return options as PublicKeyRequestOptionsJson;
  }

  /** `POST passkeyLogin.loginProcessing` with the assertion: a sign-in, or the MFA-required answer. */
  async loginWithPasskey(
    publicKeyCredential: PublicKeyCredential | PublicKeyCredentialJson,
  ): Promise<AuthenticationResult> {
    const config = await this.ensureConfig();
    const json = isBrowserCredential(publicKeyCredential)
      ? credentialToJson(publicKeyCredential)
      : publicKeyCredential;
    return this.send("passkeyLogin", config.passkeyLogin.loginProcessing, { json });
  }

  /** `POST api.cancel`: ends the MFA flow (`MFA_CANCELLED`). */
  async cancel(): Promise<AuthenticationResult> {
    const config = await this.ensureConfig();
    return this.send("cancel", config.api.cancel, { json: {} });
  }

  /** `GET api.status`: the caller's MFA session (state, satisfied, missing, allowed factors). */
  async status(): Promise<MfaStatus> {
    const config = await this.ensureConfig();
    return (await this.send("status", config.api.status, { method: "GET" })) as MfaStatus;
  }

  /**
   * `POST api.logout`. With tokens held, the refresh token goes in the body and the access token as
   * `Authorization: Bearer`, so a token chain revokes them. Clears nothing locally (the Client does).
   */
  async logout(): Promise<AuthenticationResult> {
    const config = await this.ensureConfig();
    const refreshToken = this.tokens.refreshToken();
    const accessToken = this.tokens.accessToken();
    return this.send("logout", config.api.logout, {
      json: refreshToken ? { refreshToken } : {},
      headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
    });
  }

  /** Forgets the tracked MFA state (no server call). */
  forgetState(): void {
    this.tracked.reset();
  }

  /**
   * Step-up mode (the interceptor's challenge): requests name no MFA session (the binding cookie of
   * the latest challenge decides, so concurrent challenges never mismatch it) and, for a bearer
   * client, carry its `Authorization` (the bearer is the caller; it is exempt from CSRF). `endpoints`
   * is the 401 body's: its plugin factors (`endpoints.factors`) can be answered at once.
   */
  beginStepUp(authorization?: string, endpoints?: unknown): void {
    this.tracked.reset();
    this.tracked.adoptFactorEndpoints(endpoints);
    this.stepUp = { authorization };
  }

  /** Leaves step-up mode (the step-up's MFA session is not tracked beyond it). */
  endStepUp(): void {
    this.stepUp = undefined;
    this.tracked.reset();
  }

  /**
   * Sends one request with the SDK's headers and parses the answer; the building block of every
   * method (and of `performWebAuthnAuthentication`). Refuses a URL of another origin: the CSRF token
   * and the device id never leave the page's origin.
   */
  async send(operation: ApiOperation, url: string, request: ApiRequest = {}): Promise<AuthenticationResult> {
    try {
      const body = await this.exchange(url, request);
      this.tracked.applyAnswer(body, operation === "status");
      this.observer?.answer?.(operation, body);
      return body;
    } catch (error) {
      const failure = PlatformMfaError.ofRequest(
        error,
        request.method ?? "POST",
        url,
        "The request could not be sent",
      );
      this.tracked.applyFailure(failure.code);
      this.observer?.failure?.(operation, failure);
      throw failure;
    }
  }

  private async load(options: InitOptions): Promise<MfaConfig> {
    const page = readPageConfig();
    this.tracked.adoptSessionId(page?.mfaSessionId);
    if (options.config) return mergeMfaConfig(DEFAULT_MFA_CONFIG, options.config);
    if (page?.config) return mergeMfaConfig(DEFAULT_MFA_CONFIG, page.config);
    const url = options.configUrl ?? page?.configUrl ?? DEFAULT_MFA_CONFIG.api.config;
    try {
      return mergeMfaConfig(DEFAULT_MFA_CONFIG, await this.exchange(url, { method: "GET" }));
    } catch (error) {
      const failure = PlatformMfaError.ofRequest(
        error,
        "GET",
        url,
        "The MFA configuration could not be loaded",
      );
      this.observer?.failure?.("config", failure);
      throw failure;
    }
  }

  private async exchange(url: string, request: ApiRequest): Promise<AuthenticationResult> {
    const target = sameOriginUrl(url);
    const method = request.method ?? "POST";
    const headers = new Headers();
    headers.set("X-Device-Id", deviceId());
    const stepUp = this.stepUp;
    if (stepUp?.authorization) headers.set("Authorization", stepUp.authorization);
    if (this.tracked.mfaSessionId && !stepUp) headers.set("X-MFA-Session-Id", this.tracked.mfaSessionId);
    if (this.tracked.mfaStepId && !stepUp) headers.set("X-MFA-Step-Id", this.tracked.mfaStepId);
    let body: string | undefined;
    if (method !== "GET") {
      const csrf = csrfToken();
      if (csrf) headers.set(csrf.headerName, csrf.token);
      if (request.form !== undefined) {
        headers.set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
        body = new URLSearchParams(request.form).toString();
      } else {
        headers.set("Content-Type", "application/json");
        body = JSON.stringify(request.json ?? {});
      }
    }
    for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
    headers.set("Accept", "application/json");
    // Marked: the step-up interceptor lets the SDK's own requests through (no recursion).
    const response = await this.fetchFn(
      target,
      markSdkRequest({ method, headers, body, credentials: "same-origin", cache: "no-store" }),
    );
    const parsed = await parseAnswer(response);
    if (!response.ok) {
      const code = stringOr(parsed.code, stringOr(parsed.error, `HTTP_${response.status}`));
      const message = stringOr(parsed.error, stringOr(parsed.message, `Request failed (${response.status})`));
      throw new PlatformMfaError(code, message, response.status, parsed);
    }
    return parsed;
  }
}
