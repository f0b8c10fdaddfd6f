import type { DependencyContainer, InjectionToken } from "tsyringe";
import type { ErrorCodeTable } from "./error-code-table.js";
import type { PlatformProperties, PropertyDefinition } from "./properties.js";

/** How a default is provided: a ready value, a class (singleton), or a factory (called once). */
export type DefaultProvider<T> =
  | { useValue: T }
  | { useClass: new (...args: never[]) => T }
  | { useFactory: (container: DependencyContainer) => T };

/** A start-up or shutdown hook; a start hook that throws stops start-up. */
export type LifecycleHook = (container: DependencyContainer) => void | Promise<void>;

/**
 * Replaces ports after every default is registered: defaults first, then each plugin's overrides in
 * plugin order, then the host's (`PlatformOptions.overrides`); the last override of a token wins.
 */
export interface PortOverrides {
  /**
   * Replaces what `token` resolves to with `provider` (a value, a class or a factory that gets the
   * container; classes and factories are singletons). Family tokens take members, not overrides.
   */
  override<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void;
}

/** What a plugin may do while the platform is assembled. */
export interface PluginContext extends PortOverrides {
  readonly container: DependencyContainer;
  readonly properties: PlatformProperties;
  /**
   * The environment the platform reads its properties from (`PlatformOptions.env`, default
   * `process.env`): where a plugin reads a secret that is never a property, such as an API key.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Registers `provider` under `token` only if nothing is registered there yet ("missing bean"); to
   * replace a port whatever the plugin order, use `override`.
   */
  registerDefault<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void;
  /** Adds a member to a family token (read with `@injectAll` / `resolveAll`). */
  registerMember<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void;
  /**
   * Runs at `start()` before every `onStart` hook, in plugin order: a store plugin connects to its
   * database and prepares it here, so any plugin's start hooks (keys load, policies load) can read it
   * wherever the store plugin stands in the list.
   */
  onConnect(name: string, hook: LifecycleHook): void;
  /** Runs at `start()`, before the first request (policies load, chains are built), in plugin order. */
  onStart(name: string, hook: LifecycleHook): void;
  /** Runs at `stop()`, in reverse plugin order: end timers, close connections. */
  onStop(name: string, hook: LifecycleHook): void;
}

/** A module of the platform: declares its properties, registers its ports and hooks. */
export interface PlatformPlugin {
  /** Stable identifier, e.g. `kernel`, `identity`. */
  readonly id: string;
  /** Property definitions this module reads. */
  readonly properties?: readonly PropertyDefinition[];
  /**
   * The error codes this module raises, with their statuses: the platform's ErrorCatalog is the
   * union of its plugins' tables, read before any `register` (so a code is known whatever the plugin
   * order). A table listed by two plugins is one; a code two tables define differently stops the
   * platform's creation. A host adds its own codes with a plugin of its own (docs/errors.md).
   */
  readonly errorCodes?: readonly ErrorCodeTable[];
  /**
   * Plugins installed with this one, right after it (`authzPlugin` includes `zeroTrustPlugin`). A
   * plugin the host lists itself (the same object) is installed once, where the host lists it; one
   * included twice, once, after the first plugin that includes it.
   */
  readonly includes?: readonly PlatformPlugin[];
  /**
   * `PLATFORM_*`/`SECURITY_*` environment variables this module reads itself, never as properties
   * (an API key through `ctx.env`): the platform does not warn of them as unknown.
   */
  readonly environment?: readonly string[];
  /**
   * Registers defaults, family members and hooks; must not resolve ports of plugins registered after
   * it. Optional: a plugin may only declare properties or error codes.
   */
  register?(context: PluginContext): void;
}
