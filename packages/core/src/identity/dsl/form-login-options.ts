import { PlatformError } from "../../kernel/platform-error.js";
import { MethodOptions, requirePath } from "./method-options.js";

/** The internals of form login that `rawFormLogin(...)` customizes; customizers are cumulative. */
export interface FormLoginInternals {
  usernameParameter: string;
  passwordParameter: string;
  /** Whether the processing URL also accepts a JSON body (default true). */
  acceptJson: boolean;
}

/** Options of `.form()`: the common ones plus login page, parameter names, `permitAll`, `rawFormLogin`. */
export class FormLoginOptions extends MethodOptions {
  readonly kind = "form" as const;
  loginPageValue: string | undefined;
  usernameParameterValue = "username";
  passwordParameterValue = "password";
  permitAllValue = false;
  readonly rawFormLoginCustomizers: ((internals: FormLoginInternals) => void)[] = [];

  constructor() {
    super(100);
  }

  /** A form chain reads its own parameter names. */
  override formStep(): FormLoginOptions {
    return this;
  }

  /** A custom login page URL (no page is generated then). */
  loginPage(url: string): this {
    this.loginPageValue = requirePath(url, "loginPage");
    return this;
  }
  /** Username parameter name (default `username`). */
  usernameParameter(name: string): this {
    this.usernameParameterValue = requireName(name, "usernameParameter");
    return this;
  }
  /** Password parameter name (default `password`). */
  passwordParameter(name: string): this {
    this.passwordParameterValue = requireName(name, "passwordParameter");
    return this;
  }
  /** Lets unauthenticated users reach the login page under authorization rules. */
  permitAll(): this {
    this.permitAllValue = true;
    return this;
  }
  /** Customizes form-login internals only; cumulative. */
  rawFormLogin(customizer: (internals: FormLoginInternals) => void): this {
    this.rawFormLoginCustomizers.push(customizer);
    return this;
  }
}

/** Options of `.rest()`: the common options (docs/authentication.md lists them); the body is JSON only. */
export class RestLoginOptions extends MethodOptions {
  readonly kind = "rest" as const;
  constructor() {
    super(200);
  }
}

function requireName(name: string, option: string): string {
  if (typeof name !== "string" || !/^[\w.-]{1,64}$/.test(name)) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${option} must be a simple parameter name, got ${JSON.stringify(name)}`,
    );
  }
  return name;
}
