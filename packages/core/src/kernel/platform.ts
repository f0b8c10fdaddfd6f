import {
  container as rootContainer,
  type DependencyContainer,
  type InjectionToken,
  instanceCachingFactory,
  Lifecycle,
} from "tsyringe";
import { tapAuditSink } from "./audit-listener.js";
import { AuditSink } from "./audit-sink.js";
import { createErrorCatalog, ErrorCatalog } from "./error-catalog.js";
import { kernelPlugin } from "./kernel-plugin.js";
import { Logger } from "./logger.js";
import { PlatformError } from "./platform-error.js";
import type {
  DefaultProvider,
  LifecycleHook,
  PlatformPlugin,
  PluginContext,
  PortOverrides,
} from "./plugin.js";
import { PlatformProperties, type PropertySourcesInit, resolveProperties } from "./properties.js";

/** Options of createPlatform. */
export interface PlatformOptions {
  /** Modules to install after the kernel, in order. */
  plugins?: readonly PlatformPlugin[];
  /** Property values set in code (the strongest source). */
  properties?: Record<string, unknown>;
  /** Environment to read properties from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** A JSON properties file (weaker than env, stronger than defaults). */
  configFile?: string;
  /** Where `properties` came from, named in property errors (e.g. `config module ./platform.config.ts`); default "code". */
  propertiesOrigin?: string;
  /**
   * The host's port replacements, applied last (after every default and every plugin's overrides):
   * `overrides: (o) => o.override(UserRepository, { useFactory: (c) => new MyUsers(c.resolve(Clock)) })`.
   */
  overrides?: (overrides: PortOverrides, properties: PlatformProperties) => void;
  /**
   * Advanced escape hatch: raw tsyringe registrations on the platform's container, made before any
   * default (a port registered here suppresses its default). Prefer `overrides`.
   */
  register?: (container: DependencyContainer, properties: PlatformProperties) => void;
}

/** The plugins in install order: each followed by what it includes, every plugin object once. */
function withIncludes(listed: readonly PlatformPlugin[]): PlatformPlugin[] {
  const out: PlatformPlugin[] = [];
  const seen = new Set<PlatformPlugin>(listed);
  const add = (plugin: PlatformPlugin): void => {
    out.push(plugin);
    for (const included of plugin.includes ?? []) {
      if (seen.has(included)) continue;
      seen.add(included);
      add(included);
    }
  };
  for (const plugin of listed) add(plugin);
  return out;
}

/** Lifecycle state of a platform. */
export type PlatformState = "created" | "starting" | "started" | "stopped";

/** One assembled platform instance: its own DI container, properties and lifecycle. */
export interface Platform {
  readonly container: DependencyContainer;
  readonly properties: PlatformProperties;
  readonly state: PlatformState;
  /** Resolves a port from this platform's container. */
  resolve<T>(token: InjectionToken<T>): T;
  /** Runs the start-up hooks (context refresh); a failing hook stops start-up and rethrows. */
  start(): Promise<void>;
  /** Runs the stop hooks in reverse order; never throws, reports failures in the returned list. */
  stop(): Promise<{ hook: string; error: unknown }[]>;
}

/**
 * Builds a platform: a child container of tsyringe's root (the only place the core touches the
 * global container), validated properties, the error catalog of its plugins' codes, the host's raw
 * registrations, every plugin's defaults, then the overrides: each plugin's in plugin order, the
 * host's last. Everything a plugin contributes lands in this platform's container, never in module
 * state, so two platforms in one process can differ.
 */
export function createPlatform(options: PlatformOptions = {}): Platform {
  const plugins = withIncludes([kernelPlugin, ...(options.plugins ?? [])]);
  const ids = new Set<string>();
  for (const p of plugins) {
    if (ids.has(p.id)) throw new PlatformError("CONFIGURATION_INVALID", `Plugin ${p.id} is installed twice`);
    ids.add(p.id);
  }
  const properties = resolveProperties(
    plugins.flatMap((p) => p.properties ?? []),
    sourcesOf(options, plugins),
  );
  const container = rootContainer.createChildContainer();
  container.registerInstance(PlatformProperties, properties);
  // The codes this platform answers with: its plugins' tables, whatever their order.
  container.registerInstance(
    ErrorCatalog,
    createErrorCatalog(
      plugins.flatMap((p) => (p.errorCodes ?? []).map((table) => ({ source: p.id, table }))),
    ),
  );
  options.register?.(container, properties);

  const connectHooks: { name: string; hook: LifecycleHook }[] = [];
  const startHooks: { name: string; hook: LifecycleHook }[] = [];
  const stopHooks: { name: string; hook: LifecycleHook }[] = [];
  const assembly = new Assembly(container);
  for (const plugin of plugins) {
    plugin.register?.(
      pluginContext(plugin.id, assembly, properties, options.env ?? process.env, {
        connect: connectHooks,
        start: startHooks,
        stop: stopHooks,
      }),
    );
  }
  options.overrides?.({ override: (token, provider) => assembly.queueOverride(token, provider) }, properties);
  assembly.applyOverrides();
  // Audit listeners (metrics) hear every event beside the effective sink.
  tapAuditSink(container, assembly.providerOf(AuditSink), (token, provider) =>
    assembly.register(token, provider),
  );

  let state: PlatformState = "created";
  return {
    container,
    properties,
    get state() {
      return state;
    },
    resolve: (token) => container.resolve(token),
    async start() {
      if (state !== "created")
        throw new PlatformError("ILLEGAL_STATE_TRANSITION", `Cannot start a ${state} platform`);
      state = "starting";
      warnUnknownEnvironment(container, properties);
      for (const { name, hook } of [...connectHooks, ...startHooks]) {
        try {
          await hook(container);
        } catch (cause) {
          state = "stopped";
          await runStopHooks(stopHooks, container);
          // A hook's own PlatformError code (DEPENDENCY_UNAVAILABLE for a database that is down) is kept.
          const code = cause instanceof PlatformError ? cause.code : "CONFIGURATION_INVALID";
          throw new PlatformError(code, `Start-up hook ${name} failed: ${messageOf(cause)}`, { cause });
        }
      }
      state = "started";
    },
    async stop() {
      if (state === "stopped") return [];
      state = "stopped";
      return runStopHooks(stopHooks, container);
    },
  };
}

/** The property sources of `options`, with the variables `plugins` read themselves. */
function sourcesOf(options: PlatformOptions, plugins: readonly PlatformPlugin[]): PropertySourcesInit {
  return {
    code: options.properties,
    env: options.env,
    file: options.configFile,
    ...(options.propertiesOrigin === undefined ? {} : { codeOrigin: options.propertiesOrigin }),
    readDirectly: plugins.flatMap((p) => p.environment ?? []),
  };
}

/** One warning per ignored `PLATFORM_*`/`SECURITY_*` variable (a typo would otherwise pass silently). */
function warnUnknownEnvironment(container: DependencyContainer, properties: PlatformProperties): void {
  const unknown = properties.unknownEnvironment();
  if (unknown.length === 0) return;
  const logger = container.resolve(Logger);
  for (const { name, nearest } of unknown)
    logger.warn("environment variable names no property and is ignored", {
      variable: name.slice(0, 200),
      ...(nearest === undefined ? {} : { didYouMean: nearest }),
    });
}

/**
 * The container while plugins register: defaults go in at once, overrides wait in a queue until
 * every default is in, so an override wins wherever its plugin stands in the list.
 */
class Assembly {
  private readonly families = new Set<InjectionToken<unknown>>();
  private readonly overrides: { token: InjectionToken<never>; provider: DefaultProvider<never> }[] = [];
  private readonly providers = new Map<InjectionToken<unknown>, DefaultProvider<unknown>>();

  constructor(readonly container: DependencyContainer) {}

  registerDefault<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void {
    if (!this.container.isRegistered(token, false)) this.register(token, provider);
  }

  registerMember<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void {
    this.families.add(token);
    this.register(token, provider);
  }

  queueOverride<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void {
    this.overrides.push({
      token: token as InjectionToken<never>,
      provider: provider as DefaultProvider<never>,
    });
  }

  /** Registers the queued overrides in order; tsyringe resolves a token's last registration. */
  applyOverrides(): void {
    for (const { token, provider } of this.overrides) {
      if (this.families.has(token)) {
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          `${String(token)} is a family token: add a member with registerMember, not override`,
        );
      }
      this.register(token, provider);
    }
    this.overrides.length = 0;
  }

  /** The last provider registered for `token` through the plugins or overrides, if any. */
  providerOf<T>(token: InjectionToken<T>): DefaultProvider<T> | undefined {
    return this.providers.get(token) as DefaultProvider<T> | undefined;
  }

  register<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void {
    this.providers.set(token, provider as DefaultProvider<unknown>);
    const c = this.container;
    if ("useValue" in provider) c.register(token, { useValue: provider.useValue });
    else if ("useClass" in provider)
      c.register(token, { useClass: provider.useClass as new () => T }, { lifecycle: Lifecycle.Singleton });
    else c.register(token, { useFactory: instanceCachingFactory((r) => provider.useFactory(r)) });
  }
}

function pluginContext(
  pluginId: string,
  assembly: Assembly,
  properties: PlatformProperties,
  env: Readonly<Record<string, string | undefined>>,
  hooks: Record<"connect" | "start" | "stop", { name: string; hook: LifecycleHook }[]>,
): PluginContext {
  return {
    container: assembly.container,
    properties,
    env,
    registerDefault: (token, provider) => assembly.registerDefault(token, provider),
    registerMember: (token, provider) => assembly.registerMember(token, provider),
    override: (token, provider) => assembly.queueOverride(token, provider),
    onConnect: (name, hook) => hooks.connect.push({ name: `${pluginId}:${name}`, hook }),
    onStart: (name, hook) => hooks.start.push({ name: `${pluginId}:${name}`, hook }),
    onStop: (name, hook) => hooks.stop.push({ name: `${pluginId}:${name}`, hook }),
  };
}

async function runStopHooks(
  hooks: { name: string; hook: LifecycleHook }[],
  container: DependencyContainer,
): Promise<{ hook: string; error: unknown }[]> {
  const failures: { hook: string; error: unknown }[] = [];
  for (const { name, hook } of [...hooks].reverse()) {
    try {
      await hook(container);
    } catch (error) {
      failures.push({ hook: name, error });
    }
  }
  return failures;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
