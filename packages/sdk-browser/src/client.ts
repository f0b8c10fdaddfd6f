import { ApiClient, type ApiOperation, type InitOptions } from "./api-client.js";
import { CLIENT_EVENTS, type ClientEventDetail, type ClientEventType } from "./client-events.js";
import {
  type InterceptorHandle,
  type InterceptorOptions,
  installInterceptor,
} from "./interceptor/install-interceptor.js";
import { redirectLocally } from "./local-redirect.js";
import { PasskeyCeremony } from "./passkey-ceremony.js";
import { readPageConfig } from "./page-config.js";
import { PlatformMfaError } from "./platform-mfa-error.js";
import { TokenStore } from "./token-store.js";
import type {
  AuthenticationResult,
  FactorResult,
  FactorType,
  MfaClientState,
  MfaConfig,
  MfaConfigOverrides,
  PublicKeyRequestOptionsJson,
  TokenPersistence,
  VerifyResult,
} from "./types.js";
import { credentialToJson } from "./webauthn.js";
import type { PasskeyMediation } from "./passkey-ceremony.js";

/** Options of `new PlatformMFA.Client(options)`. */
export interface ClientOptions {
  /** Load the configuration at once (default true); failures are retried by the first call. */
  autoInit?: boolean;
  /** Navigate to a completed sign-in's local `redirectUrl` (default true). */
  autoRedirect?: boolean;
  /** Where tokens live: `memory` (default), `localStorage` or `sessionStorage`; else the page's `data-token-persistence`. */
  tokenPersistence?: TokenPersistence;
  /** An injected URL set (merged over the defaults) used by the automatic init. */
  config?: MfaConfigOverrides;
  /** The fetch to use; default: the page's `fetch` at call time. */
  fetch?: typeof fetch;
}

/** The requests whose failures are MFA failures. */
const MFA_STEPS: ReadonlySet<ApiOperation> = new Set([
  "selectFactor",
  "requestOttCode",
  "verifyOtt",
  "verifyFactor",
  "getPasskeyOptions",
  "verifyPasskey",
  "cancel",
]);

/** The requests whose success completes a factor (`mfa:completed`). */
const VERIFY_STEPS: ReadonlySet<ApiOperation> = new Set(["verifyOtt", "verifyFactor", "verifyPasskey"]);

/**
 * `new PlatformMFA.Client(options)`: drives an MFA sign-in in the page through `client.apiClient`,
 * keeps the MFA state in memory, the tokens by `tokenPersistence`, and dispatches `mfa:required`,
 * `mfa:completed` and `mfa:failed` (it is an EventTarget).
 */
export class Client extends EventTarget {
  /** The low-level endpoint client. */
  readonly apiClient: ApiClient;
  /** Where this client keeps tokens. */
  readonly tokenStore: TokenStore;
  /** The effective options. */
  readonly options: Readonly<{
    autoInit: boolean;
    autoRedirect: boolean;
    tokenPersistence: TokenPersistence;
  }>;
  /** Settles when the automatic init is over (with the configuration, or undefined when it failed or was off). */
  readonly ready: Promise<MfaConfig | undefined>;
  private readonly ceremony = new PasskeyCeremony();

  constructor(options: ClientOptions = {}) {
    super();
    const tokenPersistence = options.tokenPersistence ?? readPageConfig()?.tokenPersistence ?? "memory";
    this.options = Object.freeze({
      autoInit: options.autoInit ?? true,
      autoRedirect: options.autoRedirect ?? true,
      tokenPersistence,
    });
    this.tokenStore = new TokenStore(tokenPersistence);
    this.apiClient = new ApiClient({
      tokenStore: this.tokenStore,
      fetch: options.fetch,
      observer: {
        answer: (operation, result) => this.observeAnswer(operation, result),
        failure: (operation, error) => this.observeFailure(operation, error),
      },
    });
    this.ready = this.options.autoInit
      ? this.init(options.config ? { config: options.config } : {}).catch(() => undefined)
      : Promise.resolve(undefined);
  }

  /** The tracked MFA state (session id, username, state, current and available factors). */
  get state(): MfaClientState {
    return this.apiClient.state;
  }

  /** The access token held (unless expired). */
  accessToken(): string | undefined {
    return this.tokenStore.accessToken();
  }

  /** Loads the flow's configuration (delegates to `apiClient.init`). */
  init(options: InitOptions = {}): Promise<MfaConfig> {
    return this.apiClient.init(options);
  }

  /** Selects a factor (`OTT`, `PASSKEY`); the state follows the answer. */
  selectFactor(factorType: FactorType): Promise<FactorResult> {
    return this.apiClient.selectFactor(factorType);
  }

  /** Verifies a code; `username` falls back to the tracked one. A final answer is handled. */
  async verifyOtt(code: string, username?: string): Promise<VerifyResult> {
    const result = await this.apiClient.verifyOtt(code, username);
    this.handleAuthenticationResult(result);
    return result;
  }

  /**
   * Verifies a code of a plugin factor (`TOTP`, `RECOVERY_CODE`: the flow's `endpoints.factors` names
   * it with kind `code`) at the factor's own URL, after `selectFactor(factorType)`. A final answer is
   * handled, as `verifyOtt`'s.
   */
  async verifyFactor(factorType: FactorType, code: string, username?: string): Promise<VerifyResult> {
    const result = await this.apiClient.verifyFactor(factorType, code, username);
    this.handleAuthenticationResult(result);
    return result;
  }

  /**
   * The passkey factor: assertion options, `navigator.credentials.get({ publicKey })`, then
   * `apiClient.verifyPasskey(credential)`. A final answer is handled.
   */
  async verifyPasskey(): Promise<VerifyResult> {
    const options = await this.apiClient.getPasskeyOptions();
    const credential = await this.assertion(options);
    const result = await this.apiClient.verifyPasskey(credential);
    this.handleAuthenticationResult(result);
    return result;
  }

  /**
   * The same ceremony for embedded surfaces: extra `headers` on both requests, the flow's WebAuthn
   * URLs under `contextPath` (`/app` + `/mfa/webauthn/authenticate/options`). Answers the verify
   * result without applying it (the caller decides).
   */
  async performWebAuthnAuthentication(
    headers: Record<string, string> = {},
    contextPath = "",
  ): Promise<VerifyResult> {
    const config = await this.apiClient.ensureConfig();
    const base = contextBase(contextPath);
    const options = (await this.apiClient.send("getPasskeyOptions", base + config.webauthn.assertionOptions, {
      json: {},
      headers,
    })) as PublicKeyRequestOptionsJson;
    const credential = await this.assertion(options);
    return this.apiClient.send("verifyPasskey", base + config.webauthn.assertionVerify, {
      json: credentialToJson(credential),
      headers,
    });
  }

  /**
   * Passkey sign-in as the primary method (the passkey chain): usernameless assertion options, the
   * ceremony, then the login; the answer is a sign-in or the MFA-required answer (handled like
   * `loginForm`'s: not applied here). `mediation: "conditional"` is autofill: it waits until the user
   * picks a passkey in a `autocomplete="username webauthn"` field and resolves undefined when it is
   * aborted (by a modal ceremony, {@link abortPasskeyCeremony} or `clearClientState`). `onWaiting`
   * is called once the browser's request has started.
   */
  async signInWithPasskey(
    options: { mediation?: PasskeyMediation; username?: string; onWaiting?: () => void } = {},
  ): Promise<AuthenticationResult | undefined> {
    const mediation = options.mediation ?? "modal";
    const assertionOptions = await this.apiClient.getPasskeyLoginOptions(
      mediation === "conditional" ? undefined : options.username,
    );
    const credential = await this.ceremony.get(assertionOptions, mediation, options.onWaiting);
    return credential ? this.apiClient.loginWithPasskey(credential) : undefined;
  }

  /** True when this browser offers passkey autofill (`PublicKeyCredential.isConditionalMediationAvailable()`). */
  async conditionalMediationAvailable(): Promise<boolean> {
    const pkc = globalThis.PublicKeyCredential as
      | { isConditionalMediationAvailable?: () => Promise<boolean> }
      | undefined;
    try {
      return (
        typeof pkc?.isConditionalMediationAvailable === "function" &&
        (await pkc.isConditionalMediationAvailable())
      );
    } catch {
      return false;
    }
  }

  /** Aborts a pending passkey ceremony (an autofill request, before a form submit) and waits for the browser. */
  abortPasskeyCeremony(): Promise<void> {
    return this.ceremony.abort();
  }

  /**
   * Installs the step-up interceptor over the page's `fetch` and `XMLHttpRequest` (never automatic:
   * `autoInit` does not install it). See {@link InterceptorOptions}; `uninstall()` on the handle.
   */
  installInterceptor(options: InterceptorOptions = {}): InterceptorHandle {
    return installInterceptor(this, options);
  }

  /**
   * Applies a final answer: tokens are persisted when present; with `autoRedirect` the browser goes
   * to `redirectUrl` when it is a local path (never an absolute or `//` URL), except after a step-up
   * (`stepUp: true`), which completes in place. Other answers (MFA required, failures) change nothing.
   */
  handleAuthenticationResult(result: AuthenticationResult | undefined): void {
    if (result?.success !== true) return;
    this.persistTokensToStorage(result);
    if (this.options.autoRedirect && result.stepUp !== true) redirectLocally(result.redirectUrl);
  }

  /** Keeps the answer's tokens by `tokenPersistence`. */
  persistTokensToStorage(result: AuthenticationResult): void {
    this.tokenStore.persist(result);
  }

  /** Logs out on the server, then clears the client state and every stored token (even when the call fails). */
  async logout(): Promise<AuthenticationResult> {
    try {
      return await this.apiClient.logout();
    } finally {
      this.clearClientState();
      this.clearPersistedTokens();
    }
  }

  /** Forgets the MFA state and the in-memory tokens; aborts a pending passkey ceremony. No server call. */
  clearClientState(): void {
    void this.ceremony.abort();
    this.apiClient.forgetState();
    this.tokenStore.clearMemory();
  }

  /** Removes the `platform_*` token keys from localStorage and sessionStorage. */
  clearPersistedTokens(): void {
    this.tokenStore.clearPersisted();
  }

  /** The modal ceremony of the MFA factor; failures also dispatch `mfa:failed`. */
  private async assertion(options: PublicKeyRequestOptionsJson): Promise<PublicKeyCredential> {
    try {
      return (await this.ceremony.get(options)) as PublicKeyCredential;
    } catch (error) {
      throw error instanceof PlatformMfaError ? this.ceremonyFailure(error) : error;
    }
  }

  private ceremonyFailure(error: PlatformMfaError): PlatformMfaError {
    this.emit(CLIENT_EVENTS.failed, { operation: "verifyPasskey", error });
    return error;
  }

  private observeAnswer(operation: ApiOperation, result: AuthenticationResult): void {
    const primary = operation === "login" || operation === "loginForm" || operation === "passkeyLogin";
    if (primary && result.mfaRequired === true) {
      this.emit(CLIENT_EVENTS.required, { result });
    } else if (VERIFY_STEPS.has(operation) && result.success === true) {
      this.emit(CLIENT_EVENTS.completed, { result });
    }
  }

  private observeFailure(operation: ApiOperation, error: PlatformMfaError): void {
    if (MFA_STEPS.has(operation)) this.emit(CLIENT_EVENTS.failed, { operation, error });
  }

  /** Dispatches a Client event (the interceptor's events go through here too). */
  emit(type: ClientEventType, detail: Omit<ClientEventDetail, "state">): void {
    this.dispatchEvent(
      new CustomEvent<ClientEventDetail>(type, { detail: { ...detail, state: this.state } }),
    );
  }
}

/** `/app/` → `/app`; "" stays ""; anything but a local path is refused. */
function contextBase(contextPath: string): string {
  if (contextPath === "" || contextPath === "/") return "";
  if (!contextPath.startsWith("/") || contextPath.startsWith("//")) {
    throw new PlatformMfaError("INVALID_URL", "contextPath must be a local path such as /app");
  }
  return contextPath.replace(/\/+$/, "");
}
