import { MONGO_URI, mongoPlugin } from "@keyward/adapters-mongo";
import { createPlatform, envNameOf, type Platform, type PlatformPlugin } from "@keyward/core";
import { demoPlugins } from "../demo-platform.js";
import type { HostConfig } from "../host-config.js";
import { configurationFindings } from "./configuration-checks.js";
import type { DoctorFinding } from "./doctor-finding.js";
import { unknownPropertyFindings } from "./property-names.js";
import { storeFindings } from "./store-checks.js";

/** What `platform doctor` judges. */
export interface DoctorInput {
  host: HostConfig;
  mongoUri?: string | undefined;
  env: Record<string, string | undefined>;
  production: boolean;
}

/** Most invalid values reported in one run (each costs one more platform assembly). */
const MAX_INVALID = 20;

/**
 * Every finding of a configuration, in the order an operator fixes them: property names, property
 * values, keys and addresses, then the store. Builds the platform `platform start` would (demo modules,
 * the host's plugins, MongoDB when configured) without starting it, so nothing is created or changed.
 */
export async function runDoctor(input: DoctorInput): Promise<DoctorFinding[]> {
  const uri =
    input.mongoUri ?? stringOf(input.host.properties?.[MONGO_URI.key]) ?? input.env[envNameOf(MONGO_URI.key)];
  const plugins: PlatformPlugin[] = [...demoPlugins(input.host), ...(uri ? [mongoPlugin({ uri })] : [])];
  const declared = createPlatform({ plugins, env: {} })
    .properties.list()
    .map((p) => p.key);
  const findings = unknownPropertyFindings(declared, Object.keys(input.host.properties ?? {}), input.env);
  const known = new Set(declared);
  const properties = Object.fromEntries(
    Object.entries(input.host.properties ?? {}).filter(([k]) => known.has(k)),
  );
  const env = { ...input.env };
  const platform = assemble(plugins, properties, env, findings);
  if (!platform) return findings;
  findings.push(
    ...configurationFindings({
      properties: platform.properties,
      durable: Boolean(uri),
      production: input.production,
    }),
  );
  findings.push(...(await storeFindings(uri, platform, input.production)));
  return findings;
}

/** The platform, once every invalid value is reported (PROPERTY_INVALID: key and rule, never the value) and set aside. */
function assemble(
  plugins: PlatformPlugin[],
  properties: Record<string, unknown>,
  env: Record<string, string | undefined>,
  findings: DoctorFinding[],
): Platform | undefined {
  for (let attempt = 0; attempt <= MAX_INVALID; attempt++) {
    try {
      return createPlatform({ plugins, properties, env });
    } catch (error) {
      const { code, details, message } = error as {
        code?: string;
        details?: { key?: string; rule?: string; source?: string };
        message?: string;
      };
      const key = details?.key;
      if (code !== "PROPERTY_INVALID" || key === undefined) {
        findings.push({
          code: code ?? "CONFIGURATION_INVALID",
          severity: "error",
          message: String(message).slice(0, 300),
        });
        return undefined;
      }
      findings.push({
        code: "PROPERTY_INVALID",
        severity: "error",
        message: `${key} (from ${details?.source ?? "?"}) ${details?.rule ?? "is invalid"}`,
        fix: "docs/properties.md gives each property's rule",
      });
      delete properties[key];
      delete env[envNameOf(key)];
    }
  }
  return undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
