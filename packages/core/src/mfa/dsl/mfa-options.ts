import { FormLoginOptions, RestLoginOptions } from "../../identity/dsl/form-login-options.js";
import { MethodOptions, requirePath } from "../../identity/dsl/method-options.js";
import { OttLoginOptions, PasskeyLoginOptions } from "../../identity/dsl/ott-options.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { validateMfaFlow } from "./validate-mfa-flow.js";

/** The primary step of an MFA flow: exactly one of form or REST login. */
export class PrimaryAuthenticationOptions {
  form: FormLoginOptions | undefined;
  rest: RestLoginOptions | undefined;
  defaultLoginUrlValue: string | undefined;

  /** Form login as the primary step. */
  formLogin(
    customizer: (form: FormLoginOptions & { defaultLoginUrl(url: string): unknown }) => void = () => {},
  ): this {
    this.assertNone();
    const form = new FormLoginOptions() as FormLoginOptions & { defaultLoginUrl(url: string): unknown };
    form.defaultLoginUrl = (url: string) => {
      this.defaultLoginUrlValue = requirePath(url, "defaultLoginUrl");
      return form;
    };
    customizer(form);
    this.form = form;
    return this;
  }
  /** REST login as the primary step. */
  restLogin(customizer: (rest: RestLoginOptions) => void = () => {}): this {
    this.assertNone();
    const rest = new RestLoginOptions();
    customizer(rest);
    this.rest = rest;
    return this;
  }
  private assertNone(): void {
    if (this.form || this.rest) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "primaryAuthentication takes exactly one of formLogin or restLogin",
      );
    }
  }
}

/** The mfaPage customizer: page URLs of the flow. */
export class MfaPageOptions {
  readonly urls: Record<string, string> = {};
  private set(key: string, url: string): this {
    this.urls[key] = requirePath(url, key);
    return this;
  }
  /** Factor selection page. */
  selectFactorPage(url: string): this {
    return this.set("selectFactorPage", url);
  }
  /** OTT request and verify pages together. */
  ottPages(requestUrl: string, verifyUrl: string): this {
    return this.set("ottRequestPage", requestUrl).set("ottVerifyPage", verifyUrl);
  }
  /** OTT code request page. */
  ottRequestPage(url: string): this {
    return this.set("ottRequestPage", url);
  }
  /** OTT code verification page. */
  ottVerifyPage(url: string): this {
    return this.set("ottVerifyPage", url);
  }
  /** Passkey challenge page. */
  passkeyChallengePages(url: string): this {
    return this.set("passkeyChallengePage", url);
  }
  /** MFA configuration page. */
  configurePageUrl(url: string): this {
    return this.set("configurePage", url);
  }
  /** MFA failure page. */
  failurePageUrl(url: string): this {
    return this.set("failurePage", url);
  }
}

/**
 * One secondary factor of a flow with its step order (1, 2, 3 in registration order): the spec's
 * `ott` and `passkey` with their options, or a plugin's factor by its type (`factor("TOTP")`).
 */
export interface MfaFactorStep {
  type: "ott" | "passkey" | "plugin";
  stepOrder: number;
  options: OttLoginOptions | PasskeyLoginOptions | undefined;
  /** The factor type: `OTT`, `PASSKEY`, or the plugin factor's own. */
  factorType: string;
}

/** Options of `.mfa()` (contributed to the registry DSL by the MFA module, see mfa-dsl.ts). */
export class MfaOptions extends MethodOptions {
  readonly kind = "mfa" as const;
  readonly primary = new PrimaryAuthenticationOptions();
  readonly factors: MfaFactorStep[] = [];
  readonly page = new MfaPageOptions();
  requiredFactorsValue: number | undefined;
  policyProviderValue: unknown;
  mfaSuccessHandlerValue: unknown;
  mfaFailureHandlerValue: unknown;
  nameValue: string | undefined;
  urlPrefixValue: string | undefined;
  loginPageValue: string | undefined;

  constructor() {
    super(200);
  }

  /** The MFA build rules (validateMfaFlow). */
  override validate(): void {
    validateMfaFlow(this);
  }

  /** A named flow is the chain `mfa_<name>`. */
  override namedChainId(): string | undefined {
    return this.nameValue ? `mfa_${this.nameValue}` : undefined;
  }

  /** The primary step's form, when the flow signs in with one. */
  override formStep(): FormLoginOptions | undefined {
    return this.primary.form;
  }

  /** A `.mfa()` chain needs the MFA plugin to assemble it. */
  override get contributedBy(): string {
    return "mfaPlugin (from @keyward/core)";
  }
  /** Configures the primary step (step order 0). */
  primaryAuthentication(customizer: (primary: PrimaryAuthenticationOptions) => void): this {
    customizer(this.primary);
    return this;
  }
  /** Adds the one-time-token factor. */
  ott(customizer: (ott: OttLoginOptions) => void = () => {}): this {
    const options = new OttLoginOptions();
    customizer(options);
    this.factors.push({ type: "ott", stepOrder: this.factors.length + 1, options, factorType: "OTT" });
    return this;
  }
  /** Adds the passkey factor. */
  passkey(customizer: (passkey: PasskeyLoginOptions) => void = () => {}): this {
    const options = new PasskeyLoginOptions();
    customizer(options);
    this.factors.push({
      type: "passkey",
      stepOrder: this.factors.length + 1,
      options,
      factorType: "PASSKEY",
    });
    return this;
  }
  /** Adds a factor a plugin registered, by its type (`TOTP`); an unregistered type stops start-up. */
  factor(type: string): this {
    const factorType = String(type).trim().toUpperCase();
    if (factorType === "OTT") return this.ott();
    if (factorType === "PASSKEY") return this.passkey();
    this.factors.push({ type: "plugin", stepOrder: this.factors.length + 1, options: undefined, factorType });
    return this;
  }
  /** Number of secondary factors that must complete. */
  requiredFactors(n: number): this {
    this.requiredFactorsValue = n;
    return this;
  }
  /** A custom MfaPolicyProvider. */
  policyProvider(provider: unknown): this {
    this.policyProviderValue = provider;
    return this;
  }
  /** Custom MFA success handler. */
  mfaSuccessHandler(handler: unknown): this {
    this.mfaSuccessHandlerValue = handler;
    return this;
  }
  /** Custom MFA failure handler. */
  mfaFailureHandler(handler: unknown): this {
    this.mfaFailureHandlerValue = handler;
    return this;
  }
  /** MFA page URLs. */
  mfaPage(customizer: (page: MfaPageOptions) => void): this {
    customizer(this.page);
    return this;
  }
  /** Flow name: typeName becomes `mfa_<name>`. */
  name(name: string): this {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(name))
      throw new PlatformError("CONFIGURATION_INVALID", `Invalid MFA flow name ${JSON.stringify(name)}`);
    this.nameValue = name;
    return this;
  }
  /** Prefixes every MFA URL of the flow and matches `<prefix>/**`. */
  urlPrefix(prefix: string): this {
    this.urlPrefixValue = requirePath(prefix, "urlPrefix").replace(/\/+$/, "");
    return this;
  }
  /** A user-provided primary login page (no form generated). */
  loginPage(url: string): this {
    this.loginPageValue = requirePath(url, "loginPage");
    return this;
  }
  /** Unsupported on `.mfa()`: use `primaryAuthentication(p -> p.formLogin(...))`. */
  form(): never {
    throw new PlatformError(
      "UNSUPPORTED_OPERATION",
      ".form() cannot be called on .mfa(); use .primaryAuthentication(p => p.formLogin(...))",
    );
  }
  /** Unsupported on `.mfa()`: use `primaryAuthentication(p -> p.restLogin(...))`. */
  rest(): never {
    throw new PlatformError(
      "UNSUPPORTED_OPERATION",
      ".rest() cannot be called on .mfa(); use .primaryAuthentication(p => p.restLogin(...))",
    );
  }
}
