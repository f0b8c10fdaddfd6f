import { envNameOf, nearestName } from "@keyward/core";
import type { DoctorFinding } from "./doctor-finding.js";

import { COMMAND_ENVIRONMENT } from "../command-environment.js";

const COMMAND_ENV = new Set<string>(COMMAND_ENVIRONMENT);

/**
 * Unknown property names: keys of the configuration's `properties` no module declares (an error: the
 * start refuses them), and `PLATFORM_*` environment variables that name no property (a warning: the
 * start ignores them and warns), each with the nearest declared name as "did you mean".
 */
export function unknownPropertyFindings(
  declared: readonly string[],
  configured: readonly string[],
  env: Record<string, string | undefined>,
): DoctorFinding[] {
  const known = new Set(declared);
  const out: DoctorFinding[] = [];
  for (const key of configured) {
    if (known.has(key)) continue;
    out.push({
      code: "PROPERTY_UNKNOWN",
      severity: "error",
      message: `Unknown property ${JSON.stringify(key.slice(0, 200))} in the configuration`,
      fix: suggestion(key, declared) ?? "remove it (docs/properties.md lists every property)",
    });
  }
  const envNames = declared.map(envNameOf);
  const knownEnv = new Set(envNames);
  for (const name of Object.keys(env)) {
    const owned = name.startsWith("PLATFORM_") || name.startsWith("SECURITY_");
    if (!owned || knownEnv.has(name) || COMMAND_ENV.has(name)) continue;
    out.push({
      code: "PROPERTY_UNKNOWN",
      severity: "warning",
      message: `Environment variable ${name.slice(0, 200)} names no property and is ignored`,
      fix: suggestion(name, envNames) ?? "remove it (docs/properties.md lists every property)",
    });
  }
  return out;
}

/** `did you mean <nearest>?` when a declared name is close enough to be the intended one. */
function suggestion(name: string, candidates: readonly string[]): string | undefined {
  const nearest = nearestName(name, candidates);
  return nearest === undefined ? undefined : `did you mean ${nearest}?`;
}
