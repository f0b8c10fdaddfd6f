import { extname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  nearestName,
  type Platform,
  type SecurityConfiguration,
  type SecurityRegistry,
  type PlatformPlugin,
  type PlatformProperties,
  type PortOverrides,
} from "@keyward/core";
import type { RouteRegistry } from "@keyward/adapters-http";
import type { DependencyContainer } from "tsyringe";

/** What a host configuration module exports (default export, or a function returning it). */
export interface HostConfig {
  /** Property values (strongest source). */
  properties?: Record<string, unknown>;
  /** Extra modules after the demo's own. */
  plugins?: readonly PlatformPlugin[];
  /** The host's port replacements, applied after every default and plugin (`o.override(Token, …)`). */
  overrides?: (overrides: PortOverrides, properties: PlatformProperties) => void;
  /** Advanced escape hatch: raw tsyringe registrations made before any default. Prefer `overrides`. */
  register?: (container: DependencyContainer, properties: PlatformProperties) => void;
  /**
   * The host's security filter chains, in the registry DSL (`(r) => r.form().session()…build()`);
   * default: the demo's chain layout (`demoSecurityWithApps`: `demoSecurity` with authenticator apps
   * offered in its MFA flows), which `platform serve` also uses.
   */
  security?: (registry: SecurityRegistry) => SecurityConfiguration;
  /** Application routes of the host. */
  routes?: (routes: RouteRegistry, platform: Platform) => void;
  /** Where the configuration came from (set by `loadHostConfig`: the module's path as given), named in errors. */
  source?: string;
}

/** The keys a configuration module's export may have. */
const HOST_CONFIG_KEYS = ["properties", "plugins", "overrides", "register", "security", "routes"] as const;

/** Identity helper that types a host configuration module's default export. */
export function definePlatformConfig(config: HostConfig): HostConfig {
  return config;
}

const TS_EXTENSIONS = new Set([".ts", ".mts", ".cts"]);

/**
 * The tsconfig TypeScript config modules compile with: legacy decorators on (tsyringe needs them),
 * whatever the host project's own tsconfig says. `PLATFORM_CONFIG_TSCONFIG` names another one.
 */
const LOADER_TSCONFIG = fileURLToPath(new URL("../config-loader.tsconfig.json", import.meta.url));

/**
 * Loads a host configuration module: ESM JavaScript with a plain import, TypeScript through tsx's
 * loader (so it works under plain node too) with LOADER_TSCONFIG. The default export is a HostConfig or a (possibly async)
 * function returning one.
 */
export async function loadHostConfig(file: string, cwd = process.cwd()): Promise<HostConfig> {
  const path = resolve(cwd, file);
  const url = pathToFileURL(path).href;
  let mod: { default?: unknown };
  try {
    if (TS_EXTENSIONS.has(extname(path))) {
      const { tsImport } = await import("tsx/esm/api");
      const tsconfig = process.env.PLATFORM_CONFIG_TSCONFIG ?? LOADER_TSCONFIG;
      mod = (await tsImport(url, { parentURL: import.meta.url, tsconfig })) as { default?: unknown };
    } else {
      mod = (await import(url)) as { default?: unknown };
    }
  } catch (cause) {
    throw new Error(`Cannot load config module ${file}: ${(cause as Error).message}`, { cause });
  }
  let config = mod.default;
  if (typeof config === "function") config = await (config as () => unknown)();
  if (typeof config !== "object" || config === null) {
    throw new Error(
      `Config module ${file} must default-export a configuration object or a function returning one`,
    );
  }
  refuseUnknownKeys(file, config);
  return { ...(config as HostConfig), source: file };
}

/** A mistyped key (`propertes`) would start silently on defaults: refuse it, naming the file and the key. */
function refuseUnknownKeys(file: string, config: object): void {
  for (const key of Object.keys(config)) {
    if ((HOST_CONFIG_KEYS as readonly string[]).includes(key)) continue;
    const nearest = nearestName(key, HOST_CONFIG_KEYS);
    throw new Error(
      `Config module ${file}: unknown key ${JSON.stringify(key.slice(0, 100))}${nearest ? ` (did you mean ${nearest}?)` : ""}; a configuration has ${HOST_CONFIG_KEYS.join(", ")}`,
    );
  }
}
