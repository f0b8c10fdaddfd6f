import { PlatformError } from "../../kernel/platform-error.js";
import { AsepAttributes } from "../asep/security-error-handling.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
} from "../handlers/authentication-handlers.js";
import type { FormLoginOptions, RestLoginOptions } from "./form-login-options.js";
import type { OttLoginOptions, PasskeyLoginOptions } from "./ott-options.js";
import type {
  CorsSettings,
  HeaderSettings,
  HttpSecurity,
  LogoutSettings,
} from "../http-security/http-security.js";

/** A `rawHttp` customizer: receives the chain's HttpSecurity builder. */
export type HttpCustomizer = (http: HttpSecurity) => void;

/**
 * The registry DSL's methods by kind, each with its options class. Identity declares its own four; a
 * module adds a kind by declaration merging on this interface (types), and its plugin contributes the
 * method at run time as a SecurityRegistryMethod (the MFA module adds `mfa`).
 */
export interface SignInMethodKinds {
  form: FormLoginOptions;
  rest: RestLoginOptions;
  ott: OttLoginOptions;
  passkey: PasskeyLoginOptions;
}

/** The authentication methods of the DSL (`form`, `rest`, `ott`, `passkey`, and those modules add). */
export type MethodKind = keyof SignInMethodKinds;

/**
 * Options every DSL method has: order, CSRF, CORS, headers, logout, `rawHttp` (cumulative), `asep`,
 * handlers and the security context repository.
 */
export abstract class MethodOptions {
  abstract readonly kind: MethodKind;
  orderValue: number;
  readonly rawHttpCustomizers: HttpCustomizer[] = [];
  readonly asepAttributes = new AsepAttributes();
  csrfSetting: { disable?: boolean; ignoring?: string[] } | undefined;
  corsSetting: CorsSettings | false | undefined;
  headersSetting: HeaderSettings | false | undefined;
  logoutSetting: Partial<LogoutSettings> | undefined;
  successHandlerValue: AuthenticationSuccessHandler | undefined;
  failureHandlerValue: AuthenticationFailureHandler | undefined;
  securityContextRepositoryValue: SecurityContextRepository | undefined;
  defaultSuccessUrlValue: string | undefined;
  alwaysUseDefaultSuccessUrl = false;
  failureUrlValue: string | undefined;
  loginProcessingUrlValue: string | undefined;

  protected constructor(defaultOrder: number) {
    this.orderValue = defaultOrder;
  }

  /** Checks the registration as a whole at `build()` (a method's own rules); throws CONFIGURATION_INVALID. */
  validate(): void {}

  /**
   * A chain id the registration names itself (`mfa_<name>`), which must be unique; undefined numbers
   * the chains of a kind instead (`form`, `form_2`).
   */
  namedChainId(): string | undefined {
    return undefined;
  }

  /** The form whose parameter names the chain's login processing reads, if it has one. */
  formStep(): FormLoginOptions | undefined {
    return undefined;
  }

  /**
   * The plugin to name when no installed plugin assembles this kind (`mfaPlugin (from
   * @keyward/core)`); undefined for identity's own kinds.
   */
  get contributedBy(): string | undefined {
    return undefined;
  }

  /** Chain priority; lower runs first. */
  order(order: number): this {
    if (!Number.isInteger(order))
      throw new PlatformError("CONFIGURATION_INVALID", `order must be an integer, got ${order}`);
    this.orderValue = order;
    return this;
  }

  /** CSRF: disable it, or list patterns it ignores. */
  csrf(setting: { disable?: boolean; ignoring?: string[] }): this {
    this.csrfSetting = setting;
    return this;
  }

  /** CORS for this chain. */
  cors(setting: CorsSettings | false): this {
    this.corsSetting = setting;
    return this;
  }

  /** Security headers for this chain. */
  headers(setting: HeaderSettings | false): this {
    this.headersSetting = setting;
    return this;
  }

  /** Logout URL and landing page. */
  logout(setting: Partial<LogoutSettings>): this {
    this.logoutSetting = setting;
    return this;
  }

  /** Full HTTP security API of this chain; cumulative (each call adds a customizer). */
  rawHttp(customizer: HttpCustomizer): this {
    this.rawHttpCustomizers.push(customizer);
    return this;
  }

  /** Security error handling (ASEP) of this chain; cumulative. */
  asep(customizer: (attributes: AsepAttributes) => void): this {
    customizer(this.asepAttributes);
    return this;
  }

  /** Custom success handler (else auto-selected by state type). */
  successHandler(handler: AuthenticationSuccessHandler): this {
    this.successHandlerValue = handler;
    return this;
  }

  /** Custom failure handler (else auto-selected by state type). */
  failureHandler(handler: AuthenticationFailureHandler): this {
    this.failureHandlerValue = handler;
    return this;
  }

  /** Custom security context repository (else auto-selected by state type). */
  securityContextRepository(repository: SecurityContextRepository): this {
    this.securityContextRepositoryValue = repository;
    return this;
  }

  /** Login processing URL. */
  loginProcessingUrl(url: string): this {
    this.loginProcessingUrlValue = requirePath(url, "loginProcessingUrl");
    return this;
  }

  /** Redirect after success; `alwaysUse` ignores a saved request. */
  defaultSuccessUrl(url: string, alwaysUse = false): this {
    this.defaultSuccessUrlValue = requirePath(url, "defaultSuccessUrl");
    this.alwaysUseDefaultSuccessUrl = alwaysUse;
    return this;
  }

  /** Redirect on failure. */
  failureUrl(url: string): this {
    this.failureUrlValue = requirePath(url, "failureUrl");
    return this;
  }
}

/** Checks a configured URL is a local absolute path (`/x`), so no option can redirect off-site. */
export function requirePath(url: string, option: string): string {
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//") || /[\s\\]/.test(url)) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${option} must be a local path starting with "/", got ${JSON.stringify(url)}`,
    );
  }
  return url;
}
