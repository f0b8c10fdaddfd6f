import { AccountStanding } from "../users/standing/account-standing.js";
import type { DependencyContainer, InjectionToken } from "tsyringe";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { EventBus } from "../../kernel/event-bus.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { PluginContext } from "../../kernel/plugin.js";
import {
  subjectStatusChecksOf,
  subjectStatusGate,
  subjectStatusGateAt,
} from "../authentication/subject-status-check.js";
import { SecurityContextRepository } from "../context/security-context-repository.js";
import { CsrfTokenRepository } from "../csrf/csrf-token-repository.js";
import { type ChainDefinition, SecurityConfiguration } from "../dsl/security-registry.js";
import { LogoutHook } from "../login/logout-hook.js";
import { PrimaryAuthenticator } from "../login/primary-authenticator.js";
import { ottDependencies } from "../ott/register-ott-defaults.js";
import { passkeyServiceFor } from "../passkey/register-passkey-defaults.js";
import { SessionManager } from "../session/session-manager.js";
import { TokenService } from "../tokens/token-service.js";
import { assembleChain } from "./assemble-chain.js";
import type { ChainDependencies } from "./chain-dependencies.js";
import { ChainHook } from "./chain-hook.js";
import { FilterChainProxy } from "./filter-chain-proxy.js";
import { SignInMethod } from "./sign-in-method.js";
import { RouteTable } from "../../web/route-table.js";

/**
 * Assembles the DSL's chains at start and registers the FilterChainProxy over them (unless the host
 * registered its own). Chains of multi-factor methods are assembled first: the chain hooks (MFA's
 * gate and step-up) hand the other chains' challenged users to their flows.
 */
export function registerFilterChains(c: DependencyContainer, ctx: PluginContext): void {
  if (c.isRegistered(FilterChainProxy, false)) return;
  const configuration = c.isRegistered(SecurityConfiguration, false)
    ? c.resolve(SecurityConfiguration)
    : { chains: [] };
  const methods = signInMethodsOf(c);
  const methodOf = (definition: ChainDefinition): SignInMethod => {
    const method = methods.get(definition.kind);
    if (method) return method;
    const plugin = definition.options.contributedBy;
    throw new PlatformError(
      "DEPENDENCY_MISSING",
      `Chain "${definition.id}" uses .${definition.kind}(), which no plugin contributes ` +
        `(sign-in methods: ${[...methods.keys()].join(", ")})` +
        (plugin ? `: add ${plugin} after the identity plugin` : ""),
    );
  };
  const first = configuration.chains.filter((d) => methodOf(d).multiFactor === true);
  const others = configuration.chains.filter((d) => methodOf(d).multiFactor !== true);
  const hooks = familyOf(c, ChainHook);
  for (const definition of first) assertGatedInto(definition, hooks);
  const deps = chainDependencies(c, ctx, () => hooks);
  const assembled = first.map((d) => assembleChain(d, methodOf(d), deps));
  assembled.push(...others.map((d) => assembleChain(d, methodOf(d), deps)));
  c.registerInstance(FilterChainProxy, new FilterChainProxy(assembled));
}

function chainDependencies(
  c: DependencyContainer,
  ctx: PluginContext,
  hooks: () => readonly ChainHook[],
): ChainDependencies {
  // Members come from later plugins (zero trust); read once the container is complete.
  const checks = subjectStatusChecksOf(c);
  const statusCheck = subjectStatusGate(checks);
  const requestStatusCheck = subjectStatusGateAt(checks, "request");
  // Members come from later plugins (MFA); read once, at the first logout.
  let logoutHooks: readonly LogoutHook[] | undefined;
  return {
    logoutHooks: () => (logoutHooks ??= familyOf(c, LogoutHook)),
    hooks,
    authenticator: c.resolve(PrimaryAuthenticator),
    sessions: c.resolve(SessionManager),
    csrfTokens: c.resolve(CsrfTokenRepository),
    sessionRepository: c.resolve(SecurityContextRepository),
    tokens: c.resolve(TokenService),
    audit: c.resolve(AuditSink),
    events: c.resolve(EventBus),
    clock: c.resolve(Clock),
    statusCheck,
    requestStatusCheck,
    standing: c.resolve(AccountStanding),
    ott: () => ottDependencies(c, ctx),
    passkeyService: passkeyServiceFor(c, ctx),
    routeTable: c.resolve(RouteTable),
    container: c,
  };
}

/**
 * The sign-in methods by kind: a plugin's default (`builtIn`) yields to any other member of its kind
 * whatever the plugin order; otherwise the later member of a kind replaces the earlier one.
 */
function signInMethodsOf(c: DependencyContainer): Map<string, SignInMethod> {
  const members = familyOf(c, SignInMethod);
  const ordered = [...members.filter((m) => m.builtIn), ...members.filter((m) => !m.builtIn)];
  return new Map(ordered.map((m) => [m.kind, m]));
}

/**
 * A multi-factor method's chains skip the hooks after primary authentication, so one must be gated
 * into by a hook that names its kind; a bare `multiFactor` flag never exempts a method from MFA.
 */
function assertGatedInto(definition: ChainDefinition, hooks: readonly ChainHook[]): void {
  if (hooks.some((h) => h.multiFactorKinds?.includes(definition.kind))) return;
  throw new PlatformError(
    "CONFIGURATION_INVALID",
    `Chain "${definition.id}": the .${definition.kind}() sign-in method says it is multi-factor, ` +
      "but no ChainHook gates the other chains into it (multiFactorKinds)",
  );
}

function familyOf<T>(c: DependencyContainer, token: InjectionToken<T>): T[] {
  return c.isRegistered(token, true) ? c.resolveAll(token) : [];
}
