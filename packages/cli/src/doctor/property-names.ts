import { envNameOf } from "@keyward/core";
import type { DoctorFinding } from "./doctor-finding.js";

/** PLATFORM_* variables the `platform` command reads itself (not properties). */
const COMMAND_ENV = new Set(["PLATFORM_CREDENTIALS", "PLATFORM_CONFIG_TSCONFIG"]);

/**
 * Unknown property names: keys of the configuration's `properties` no module declares (an error: the
 * start refuses them), and `PLATFORM_*` environment variables that name no property (a warning: the
 * start ignores them), each with the nearest declared name as "did you mean".
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
    if (!name.startsWith("PLATFORM_") || knownEnv.has(name) || COMMAND_ENV.has(name)) continue;
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
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), 6);
    if (distance <= 6 && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.candidate.length / 4))
    ? `did you mean ${best.candidate}?`
    : undefined;
}

/** Levenshtein distance, giving up (returning `cap + 1`) once it exceeds `cap` or for very long names. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap || a.length > 200) return cap + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}
