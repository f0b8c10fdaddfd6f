import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
} from "../../identity/handlers/authentication-handlers.js";
import type { MfaOptions } from "../dsl/mfa-options.js";
import type { ChainDefinition } from "../../identity/dsl/security-registry.js";
import type { MfaPolicyProvider } from "../decision/mfa-policy-provider.js";
import type { FactorType } from "../factor-type.js";
import { mfaUrls } from "../urls/mfa-urls.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { BUILT_IN_FACTORS } from "../factor-family/built-in-factors.js";
import type { FactorDescription } from "../factor-family/factor.js";
import type { GenericFactorUrls, MfaFlow } from "./mfa-flow.js";

/** What a flow falls back to when the DSL sets nothing: policy, page URLs, handlers by state type. */
export interface MfaFlowDefaults {
  policy: MfaPolicyProvider;
  /** Page URLs from `platform.auth.mfa.pages.*` (an `mfaPage(...)` override wins). */
  pageUrls?: Readonly<Record<string, string>>;
  successHandler: AuthenticationSuccessHandler;
  failureHandler: AuthenticationFailureHandler;
  /** The offered factor family; a flow factor outside it stops start-up. Default the built-in two. */
  factors?: readonly FactorDescription[];
}

/** Builds the runtime view of one `.mfa()` registration: URLs (with urlPrefix), factors, handlers, policy. */
export function buildMfaFlow(definition: ChainDefinition, defaults: MfaFlowDefaults): MfaFlow {
  const options = definition.options as MfaOptions;
  const primary = options.primary.form ?? options.primary.rest;
  const primaryKind = options.primary.form ? "form" : "rest";
  const factors: FactorType[] = options.factors.map((f) => f.factorType);
  const members = factorMembersOf(definition.id, factors, defaults.factors ?? BUILT_IN_FACTORS);
  const requiredFactors = options.requiredFactorsValue ?? factors.length;
  checkStandIns(definition.id, members, requiredFactors);
  const prefix = options.urlPrefixValue ?? "";
  const factorUrls: Record<FactorType, GenericFactorUrls> = {};
  for (const m of members) {
    if (m.urls)
      factorUrls[m.type] = { verify: prefix + m.urls.verify, challengePage: prefix + m.urls.challengePage };
  }
  return {
    factorMembers: members,
    factorUrls,
    typeName: definition.id,
    stateKind: definition.state,
    primaryKind,
    factors,
    requiredFactors,
    urls: mfaUrls({
      urlPrefix: options.urlPrefixValue,
      pages: { ...defaults.pageUrls, ...options.page.urls },
      defaultLoginUrl: options.primary.defaultLoginUrlValue,
      loginPage: options.loginPageValue ?? options.primary.form?.loginPageValue,
      primary: primaryKind,
      primaryProcessingUrl: primary?.loginProcessingUrlValue,
      defaultSuccessUrl: options.defaultSuccessUrlValue ?? primary?.defaultSuccessUrlValue,
    }),
    policy: (options.policyProviderValue as MfaPolicyProvider | undefined) ?? defaults.policy,
    successHandler:
      (options.mfaSuccessHandlerValue as AuthenticationSuccessHandler | undefined) ?? defaults.successHandler,
    failureHandler:
      (options.mfaFailureHandlerValue as AuthenticationFailureHandler | undefined) ?? defaults.failureHandler,
  };
}

/** The family's member of each flow factor; a factor nobody offers stops start-up. */
function factorMembersOf(
  flowName: string,
  factors: readonly FactorType[],
  offered: readonly FactorDescription[],
): FactorDescription[] {
  return factors.map((type) => {
    const member = offered.find((f) => f.type === type);
    if (!member) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `${flowName}: factor ${type} is not offered (registered: ${offered.map((f) => f.type).join(", ")})`,
        { details: { key: "platform.auth.mfa.factors", value: type } },
      );
    }
    return member;
  });
}

/**
 * A stand-in factor (a recovery code) never satisfies a requirement that names another factor: a flow
 * offering one must require fewer factors than it names besides its stand-ins, so every completion it
 * counts in could also have been made of named factors (one of OTT or TOTP), never in place of a
 * factor each sign-in must prove (OTT and PASSKEY, both required).
 */
function checkStandIns(flowName: string, members: readonly FactorDescription[], required: number): void {
  const standIns = members.filter((m) => m.standIn === true);
  const named = members.length - standIns.length;
  if (standIns.length > 0 && required >= named) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${flowName}: ${standIns.map((m) => m.type).join(", ")} would stand in for a factor the flow requires ` +
        `(requiredFactors ${required} of ${named} named factor(s)); require fewer, or allow it by its property`,
      { details: { flow: flowName, requiredFactors: required, standIns: standIns.map((m) => m.type) } },
    );
  }
}
