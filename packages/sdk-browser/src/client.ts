import { ApiClient, type ApiOperation, type InitOptions } from "./api-client.js";
import { redirectLocally } from "./local-redirect.js";
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
import { credentialToJson, toRequestOptions } from "./webauthn.js";

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

/** The events a Client dispatches (`client.addEventListener("mfa:required", ...)`). */
export const CLIENT_EVENTS = {
  /** A primary sign-in answered that MFA is required; detail `{ result, state }`. */
  required: "mfa:required",
  /** A factor verification completed the sign-in; detail `{ result, state }`. */
  completed: "mfa:completed",
  /** An MFA step failed (wrong code, expired session, passkey ceremony refused...); detail `{ operation, error, state }`. */
  failed: "mfa:failed",
} as const;

/** The name of a Client event. */
export type ClientEventType = (typeof CLIENT_EVENTS)[keyof typeof CLIENT_EVENTS];

/** The `detail` of a Client event. */
export interface ClientEventDetail {
  result?: AuthenticationResult;
  operation?: ApiOperation;
  error?: PlatformMfaError;
  state: MfaClientState;
}

/** The requests whose failures are MFA failures. */
const MFA_STEPS: ReadonlySet<ApiOperation> = new Set([
  "selectFactor",
  "requestOttCode",
  "verifyOtt",
  "getPasskeyOptions",
  "verifyPasskey",
  "cancel",
]);

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
  private ceremony: AbortController | undefined;

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
   * Applies a final answer: tokens are persisted when present; with `autoRedirect` the browser goes
   * to `redirectUrl` when it is a local path (never an absolute or `//` URL). Other answers (MFA
   * required, failures) change nothing here.
   */
  handleAuthenticationResult(result: AuthenticationResult | undefined): void {
    if (result?.success !== true) return;
    this.persistTokensToStorage(result);
    if (this.options.autoRedirect) redirectLocally(result.redirectUrl);
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
    this.ceremony?.abort();
    this.ceremony = undefined;
    this.apiClient.forgetState();
    this.tokenStore.clearMemory();
  }

  /** Removes the `platform_*` token keys from localStorage and sessionStorage. */
  clearPersistedTokens(): void {
    this.tokenStore.clearPersisted();
  }

  /** `navigator.credentials.get`; a new ceremony aborts the pending one. Failures are PlatformMfaErrors. */
  private async assertion(options: PublicKeyRequestOptionsJson): Promise<PublicKeyCredential> {
    const credentials = globalThis.navigator?.credentials;
    if (!credentials || typeof globalThis.PublicKeyCredential === "undefined") {
      throw this.ceremonyFailure(new PlatformMfaError("PASSKEY_UNSUPPORTED", "This browser has no passkeys"));
    }
    this.ceremony?.abort();
    const controller = new AbortController();
    this.ceremony = controller;
    try {
      const credential = await credentials.get({
        publicKey: toRequestOptions(options),
        signal: controller.signal,
      });
      if (!credential) throw new PlatformMfaError("PASSKEY_CEREMONY_FAILED", "No passkey was used");
      return credential as PublicKeyCredential;
    } catch (error) {
      if (error instanceof PlatformMfaError) throw this.ceremonyFailure(error);
      const name = error instanceof Error ? error.name : "";
      const code =
        name === "NotAllowedError" || name === "AbortError" ? "PASSKEY_CANCELLED" : "PASSKEY_CEREMONY_FAILED";
      const message = error instanceof Error ? error.message : "The passkey ceremony failed";
      throw this.ceremonyFailure(new PlatformMfaError(code, message, 0, {}, error));
    } finally {
      if (this.ceremony === controller) this.ceremony = undefined;
    }
  }

  private ceremonyFailure(error: PlatformMfaError): PlatformMfaError {
    this.emit(CLIENT_EVENTS.failed, { operation: "verifyPasskey", error });
    return error;
  }

  private observeAnswer(operation: ApiOperation, result: AuthenticationResult): void {
    if ((operation === "login" || operation === "loginForm") && result.mfaRequired === true) {
      this.emit(CLIENT_EVENTS.required, { result });
    } else if ((operation === "verifyOtt" || operation === "verifyPasskey") && result.success === true) {
      this.emit(CLIENT_EVENTS.completed, { result });
    }
  }

  private observeFailure(operation: ApiOperation, error: PlatformMfaError): void {
    if (MFA_STEPS.has(operation)) this.emit(CLIENT_EVENTS.failed, { operation, error });
  }

  private emit(type: ClientEventType, detail: Omit<ClientEventDetail, "state">): void {
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
