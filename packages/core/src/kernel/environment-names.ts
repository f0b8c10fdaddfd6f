import { nearestName } from "./nearest-name.js";

/** The prefixes of the variables the platform owns: a variable under one that names nothing is a typo. */
const OWNED_PREFIXES = ["PLATFORM_", "SECURITY_"] as const;

/** An environment variable under the platform's prefixes that names no property and no variable a module reads. */
export interface UnknownEnvironmentVariable {
  readonly name: string;
  /** The known name nearest to it, when close enough to be the intended one. */
  readonly nearest?: string | undefined;
}

/**
 * The `PLATFORM_*` and `SECURITY_*` variables of `env` that are neither a declared property's
 * variable (`envNames`) nor one a module reads itself (`readDirectly`: secrets, the command's own),
 * each with the nearest known name; in name order. The platform ignores them, so it warns.
 */
export function unknownEnvironmentVariables(
  env: Readonly<Record<string, string | undefined>>,
  envNames: readonly string[],
  readDirectly: readonly string[],
): UnknownEnvironmentVariable[] {
  const known = [...envNames, ...readDirectly];
  const knownSet = new Set(known);
  return Object.keys(env)
    .filter((name) => OWNED_PREFIXES.some((p) => name.startsWith(p)) && !knownSet.has(name))
    .sort()
    .map((name) => {
      const nearest = nearestName(name, known);
      return nearest === undefined ? { name } : { name, nearest };
    });
}
