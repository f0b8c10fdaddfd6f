import {
  container as rootContainer,
  type DependencyContainer,
  type InjectionToken,
  instanceCachingFactory,
  Lifecycle,
} from "tsyringe";
import { kernelPlugin } from "./kernel-plugin.js";
import { PlatformError } from "./platform-error.js";
import type { DefaultProvider, LifecycleHook, PlatformPlugin, PluginContext } from "./plugin.js";
import {
  type PlatformProperties,
  PlatformPropertiesToken,
  type PropertySourcesInit,
  resolveProperties,
} from "./properties.js";

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
  /**
   * The host's own registrations, made before any default: whatever the host registers here
   * (a UserRepository, a PasswordHasher, ...) replaces the platform's default for that port.
   */
  register?: (container: DependencyContainer, properties: PlatformProperties) => void;
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
 * global container), validated properties, the host's registrations, then every plugin's defaults.
 */
export function createPlatform(options: PlatformOptions = {}): Platform {
  const plugins = [kernelPlugin, ...(options.plugins ?? [])];
  const ids = new Set<string>();
  for (const p of plugins) {
    if (ids.has(p.id)) throw new PlatformError("CONFIGURATION_INVALID", `Plugin ${p.id} is installed twice`);
    ids.add(p.id);
  }
  const sources: PropertySourcesInit = {
    code: options.properties,
    env: options.env,
    file: options.configFile,
  };
  const properties = resolveProperties(
    plugins.flatMap((p) => p.properties ?? []),
    sources,
  );
  const container = rootContainer.createChildContainer();
  container.registerInstance(PlatformPropertiesToken, properties);
  options.register?.(container, properties);

  const startHooks: { name: string; hook: LifecycleHook }[] = [];
  const stopHooks: { name: string; hook: LifecycleHook }[] = [];
  for (const plugin of plugins) {
    plugin.register(pluginContext(plugin.id, container, properties, startHooks, stopHooks));
  }

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
      for (const { name, hook } of startHooks) {
        try {
          await hook(container);
        } catch (cause) {
          state = "stopped";
          await runStopHooks(stopHooks, container);
          throw new PlatformError(
            "CONFIGURATION_INVALID",
            `Start-up hook ${name} failed: ${messageOf(cause)}`,
            {
              cause,
            },
          );
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

function pluginContext(
  pluginId: string,
  container: DependencyContainer,
  properties: PlatformProperties,
  startHooks: { name: string; hook: LifecycleHook }[],
  stopHooks: { name: string; hook: LifecycleHook }[],
): PluginContext {
  const register = <T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void => {
    if ("useValue" in provider) container.register(token, { useValue: provider.useValue });
    else if ("useClass" in provider)
      container.register(
        token,
        { useClass: provider.useClass as new () => T },
        { lifecycle: Lifecycle.Singleton },
      );
    else container.register(token, { useFactory: instanceCachingFactory((c) => provider.useFactory(c)) });
  };
  return {
    container,
    properties,
    registerDefault(token, provider) {
      if (!container.isRegistered(token, false)) register(token, provider);
    },
    registerMember: register,
    onStart: (name, hook) => startHooks.push({ name: `${pluginId}:${name}`, hook }),
    onStop: (name, hook) => stopHooks.push({ name: `${pluginId}:${name}`, hook }),
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
