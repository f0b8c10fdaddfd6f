import { ServerAddress } from "../kernel/server-address.js";
import type { DependencyContainer } from "tsyringe";
import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { EventBus } from "../kernel/event-bus.js";
import { MfaEventListener } from "./events/mfa-event-listener.js";
import { publicUrlOf } from "../identity/public-url.properties.js";
import { AIAdaptiveMfaPolicyProvider } from "./adaptive/ai-adaptive-mfa-policy-provider.js";
import { HeuristicRiskAnalyzer } from "./adaptive/heuristic-risk-analyzer.js";
import { InMemorySignInHistoryStore } from "./adaptive/in-memory-sign-in-history-store.js";
import { RiskAnalyzer } from "./adaptive/risk-analyzer.js";
import { MFA_ADAPTIVE_TIMEOUT, riskThresholdsFromProperties } from "./adaptive/risk-thresholds.js";
import { SignInHistoryStore } from "./adaptive/sign-in-history-store.js";
import { DEVICE_COOKIE_MAX_AGE, DEVICE_COOKIE_SECRET } from "./device/device-cookie.properties.js";
import { deviceCookieKeyOf } from "./device/device-cookie-key.js";
import { StartedDeviceCookies } from "./device/started-device-cookies.js";
import { DeviceCookies } from "./device/device-cookies.js";
import { HmacDeviceCookies } from "./device/hmac-device-cookies.js";
import {
  MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED,
  MFA_BUILTIN_ANALYZER,
  MFA_POLICY,
} from "./mfa-policy.properties.js";
import { EscalationService } from "./escalation/escalation-service.js";
import { EscalationStore } from "./escalation/escalation-store.js";
import { InMemoryEscalationStore } from "./escalation/in-memory-escalation-store.js";
import { MfaEventPublisher } from "./events/mfa-event-publisher.js";
import { MFA_PERFORMANCE_ALERT } from "./events/mfa-events.properties.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { Logger } from "../kernel/logger.js";
import { KeyRing } from "../kernel/keys/key-ring.js";
import { mfaCodeKeyOf, StartedMfaCodeKey } from "./codes/mfa-code-key.js";
import type { PluginContext } from "../kernel/plugin.js";
import { OneTimeTokenDelivery } from "../identity/ott/one-time-token-delivery.js";
import { DefaultMfaPolicyProvider } from "./decision/default-mfa-policy-provider.js";
import { FACTOR_CATALOG } from "./factor-family/factor-catalog.js";
import { registerFactorFamily } from "./factor-family/register-factor-family.js";
import { MfaPolicyProvider } from "./decision/mfa-policy-provider.js";
import { MfaCallerBinding } from "./flow/mfa-caller-binding.js";
import { LogoutHook } from "../identity/login/logout-hook.js";
import { AccountUnlockHook } from "../identity/users/admin/account-unlock-hook.js";
import { UserRepository } from "../identity/users/user-repository.js";
import { endPendingMfa } from "./flow/end-pending-mfa.js";
import { InMemoryMfaLockouts } from "./flow/in-memory-mfa-lockouts.js";
import { MfaLockouts } from "./flow/mfa-lockouts.js";
import { MfaRuntime } from "./flow/mfa-runtime.js";
import { type MfaSettings, mfaSettingsFromProperties } from "./mfa.properties.js";
import { FactorContextRepository } from "./state/factor-context-repository.js";
import { InMemoryFactorContextRepository } from "./state/in-memory-factor-context-repository.js";
import { MfaStateMachine } from "./state/mfa-state-machine.js";
import { AdministratorAvailabilityCheck } from "../identity/users/admin/administrator-guard.js";
import { addressedDelivery } from "../identity/ott/addressed-delivery.js";

/** Registers the MFA defaults (policy, FactorContext store, lockouts, runtime) where the host gave none. */
export function registerMfaDefaults(ctx: PluginContext): void {
  const settings = mfaSettingsFromProperties(ctx.properties);
  registerFactorFamily(ctx);
  registerMfaStores(ctx, settings);
  registerMfaHooks(ctx);
  registerMfaPolicy(ctx, settings);
  registerMfaRuntime(ctx, settings);
}

/**
 * Holders of these authorities never get in on the password plus a review: an escalation becomes a
 * challenge for them (none when `allow-skip-for-required-authorities` is on).
 */
function secondFactorFloorOf(ctx: PluginContext, settings: MfaSettings): readonly string[] {
  return ctx.properties.get(MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED) ? [] : settings.requiredAuthorities;
}

/** The stores: factor contexts, lockouts, sign-in history, device cookies, escalations. */
function registerMfaStores(ctx: PluginContext, settings: MfaSettings): void {
  ctx.registerDefault(FactorContextRepository, {
    useFactory: (c) =>
      new InMemoryFactorContextRepository({
        clock: c.resolve(Clock),
        retentionMs: settings.sessionTimeoutMs * 3,
      }),
  });
  ctx.registerDefault(MfaLockouts, { useFactory: (c) => new InMemoryMfaLockouts(c.resolve(Clock)) });
  // An administrator under an MFA lockout is not available (the last-administrator rule).
  ctx.registerMember(AdministratorAvailabilityCheck, {
    useFactory: (c) => {
      const lockouts = c.resolve(MfaLockouts);
      return {
        id: "mfa-lockout",
        unavailable: async (account) => (await lockouts.lockedUntil(account.id)) !== undefined,
        restore: (account) => lockouts.unlock(account.id),
      };
    },
  });
  // A logout also ends the caller's pending MFA flow and escalation (and clears their cookies).
  ctx.registerDefault(SignInHistoryStore, {
    useFactory: (c) => new InMemorySignInHistoryStore({ clock: c.resolve(Clock) }),
  });
  // The key is read at start (configured, or kept in the KeyRing so every instance shares it).
  const deviceCookies = new StartedDeviceCookies();
  ctx.registerDefault(DeviceCookies, { useValue: deviceCookies });
  ctx.onStart("mfa-device-cookie-key", async (c) => {
    if (c.resolve(DeviceCookies) !== deviceCookies) return;
    const { key } = await deviceCookieKeyOf(
      ctx.properties.get(DEVICE_COOKIE_SECRET),
      c.resolve(KeyRing),
      c.resolve(Logger),
    );
    deviceCookies.start(
      new HmacDeviceCookies({
        key,
        maxAgeSeconds: Math.floor(ctx.properties.get(DEVICE_COOKIE_MAX_AGE) / 1000),
        ids: c.resolve(IdGenerator),
      }),
    );
  });
  ctx.registerDefault(EscalationStore, {
    useFactory: (c) => new InMemoryEscalationStore({ clock: c.resolve(Clock) }),
  });
}

/** The MFA members of identity's logout and account-unlock families. */
function registerMfaHooks(ctx: PluginContext): void {
  ctx.registerMember(LogoutHook, {
    useFactory: (c) => ({
      id: "mfa-pending-flows",
      onLogout: endPendingMfa({
        runtime: c.resolve(MfaRuntime),
        contexts: c.resolve(FactorContextRepository),
        binding: new MfaCallerBinding(c.resolve(IdGenerator)),
        escalations: c.resolve(EscalationService),
      }),
    }),
  });
  // An administrator's unlock also ends the account's MFA lockout.
  ctx.registerMember(AccountUnlockHook, {
    useFactory: (c) => {
      const lockouts = c.resolve(MfaLockouts);
      return { id: "mfa-lockout", unlock: (account) => lockouts.unlock(account.id) };
    },
  });
}

/** The policy provider: static rules, or adaptive over the risk analyzer (and the built-in analyzer). */
function registerMfaPolicy(ctx: PluginContext, settings: MfaSettings): void {
  if (ctx.properties.get(MFA_BUILTIN_ANALYZER))
    ctx.registerDefault(RiskAnalyzer, { useValue: new HeuristicRiskAnalyzer() });
  const staticRules = (c: DependencyContainer) => {
    const factors = c.resolve(FACTOR_CATALOG);
    return new DefaultMfaPolicyProvider({
      requiredAuthorities: settings.requiredAuthorities,
      allowedFactors: factors.types(),
      knownFactors: factors.types(),
      availableFactors: (userId) => factors.enrolledFor(userId),
    });
  };
  const adaptive = ctx.properties.get(MFA_POLICY) === "adaptive";
  const thresholds = adaptive ? riskThresholdsFromProperties(ctx.properties) : undefined;
  ctx.registerDefault(MfaPolicyProvider, {
    useFactory: (c) =>
      thresholds
        ? new AIAdaptiveMfaPolicyProvider({
            analyzer: c.isRegistered(RiskAnalyzer, true) ? c.resolve(RiskAnalyzer) : undefined,
            history: c.resolve(SignInHistoryStore),
            fallback: staticRules(c),
            thresholds,
            requiredAuthorities: settings.requiredAuthorities,
            allowSkipForRequiredAuthorities: ctx.properties.get(MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED),
            timeoutMs: ctx.properties.get(MFA_ADAPTIVE_TIMEOUT),
            clock: c.resolve(Clock),
            events: c.resolve(EventBus),
            audit: c.resolve(AuditSink),
            logger: c.resolve(Logger),
            availableFactors: (userId) => c.resolve(FACTOR_CATALOG).enrolledFor(userId),
          })
        : staticRules(c),
  });
}

/** The escalation service and the MFA runtime (state machine, binding, deliveries, events). */
function registerMfaRuntime(ctx: PluginContext, settings: MfaSettings): void {
  const secondFactorFloor = secondFactorFloorOf(ctx, settings);
  // The code key is read at start from the KeyRing, so every instance on one KeyStore shares it.
  const codeKey = new StartedMfaCodeKey();
  ctx.onStart("mfa-code-key", async (c) => codeKey.start(await mfaCodeKeyOf(c.resolve(KeyRing))));
  ctx.registerDefault(EscalationService, {
    useFactory: (c) =>
      new EscalationService({
        store: c.resolve(EscalationStore),
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        audit: c.resolve(AuditSink),
        events: c.resolve(EventBus),
        secondFactorFloor,
      }),
  });
  ctx.registerDefault(MfaRuntime, {
    useFactory: (c) =>
      new MfaRuntime({
        contexts: c.resolve(FactorContextRepository),
        machine: new MfaStateMachine({
          clock: c.resolve(Clock),
          sessionTimeoutMs: settings.sessionTimeoutMs,
          challengeTimeoutMs: settings.challengeTimeoutMs,
          maxRetryAttempts: settings.maxRetryAttempts,
          accountLockoutDurationMs: settings.accountLockoutDurationMs,
          factors: c.resolve(FACTOR_CATALOG).members(),
        }),
        binding: new MfaCallerBinding(c.resolve(IdGenerator)),
        lockouts: c.resolve(MfaLockouts),
        delivery: addressedDelivery(c.resolve(OneTimeTokenDelivery), c.resolve(UserRepository)),
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        audit: c.resolve(AuditSink),
        logger: c.resolve(Logger),
        settings,
        performanceAlertMs: ctx.properties.get(MFA_PERFORMANCE_ALERT),
        escalations: c.resolve(EscalationService),
        secondFactorFloor,
        availableFactors: (userId) => c.resolve(FACTOR_CATALOG).enrolledFor(userId),
        factors: c.resolve(FACTOR_CATALOG),
        publicUrl: publicUrlOf(ctx.properties, c.resolve(ServerAddress)),
        history: c.resolve(SignInHistoryStore),
        devices: c.resolve(DeviceCookies),
        codeSecret: () => codeKey.get(),
        events: new MfaEventPublisher({
          listeners: () => (c.isRegistered(MfaEventListener, true) ? c.resolveAll(MfaEventListener) : []),
          bus: c.resolve(EventBus),
          audit: c.resolve(AuditSink),
          logger: c.resolve(Logger),
        }),
      }),
  });
}
