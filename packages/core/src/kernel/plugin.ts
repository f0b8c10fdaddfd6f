import type { DependencyContainer, InjectionToken } from "tsyringe";
import type { PlatformProperties, PropertyDefinition } from "./properties.js";

/** How a default is provided: a ready value, a class (singleton), or a factory (called once). */
export type DefaultProvider<T> =
  | { useValue: T }
  | { useClass: new (...args: never[]) => T }
  | { useFactory: (container: DependencyContainer) => T };

/** A start-up or shutdown hook; a start hook that throws stops start-up. */
export type LifecycleHook = (container: DependencyContainer) => void | Promise<void>;

/** What a plugin may do while the platform is assembled. */
export interface PluginContext {
  readonly container: DependencyContainer;
  readonly properties: PlatformProperties;
  /** Registers `provider` under `token` only if the host registered nothing there ("missing bean"). */
  registerDefault<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void;
  /** Adds a member to a family token (read with `@injectAll` / `resolveAll`). */
  registerMember<T>(token: InjectionToken<T>, provider: DefaultProvider<T>): void;
  /** Runs at `start()` (the spec's context refresh), in plugin order. */
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
  /** Registers defaults and hooks; must not resolve ports of plugins registered after it. */
  register(context: PluginContext): void;
}
