import type { InjectionToken } from "tsyringe";
import type { AuthorizationManager } from "./authorization-manager.js";

/**
 * A static authorization rule a plugin adds to its platform (the MFA plugin adds `recentFactor`): a
 * function of the rule's arguments returning an AuthorizationManager, which becomes
 * `requestMatchers(...).<name>(...)` in the `authorizeHttpRequests` of that platform's chains. A
 * family: a plugin adds one with `ctx.registerMember(ContributedRule, { useValue })`. Its type comes
 * by declaration merging on `ContributedRules`; on a platform without the plugin, using it throws
 * CONFIGURATION_INVALID naming what is missing.
 */
export interface ContributedRule {
  /** The rule's name (`recentFactor`). */
  readonly name: string;
  /** Builds the rule's manager from its arguments. */
  readonly rule: (...args: never[]) => AuthorizationManager;
}

/** DI token of the ContributedRule family. */
export const ContributedRule: InjectionToken<ContributedRule> = Symbol.for("platform.ContributedRule");
