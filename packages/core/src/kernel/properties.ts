import { readFileSync } from "node:fs";
import { z } from "zod";
import { parseByteSize, parseDuration } from "./duration.js";
import { type UnknownEnvironmentVariable, unknownEnvironmentVariables } from "./environment-names.js";
import { nearestName } from "./nearest-name.js";
import { PlatformError } from "./platform-error.js";

/** One typed property: key, zod schema, default, description; `inert` names why it has no effect yet. */
export interface PropertyDefinition<T = unknown> {
  readonly key: string;
  readonly schema: z.ZodType<T>;
  readonly default: T;
  readonly description: string;
  /** When set, the key is accepted but changes nothing yet; the reason is printed in the property table. */
  readonly inert?: string;
}

/** Declares a property (a typed helper so `default` matches the schema). */
export function defineProperty<T>(definition: PropertyDefinition<T>): PropertyDefinition<T> {
  return definition;
}

/** Schema helpers that accept both typed values (code, JSON file) and strings (environment). */
export const prop = {
  /** A duration in milliseconds from ISO-8601 (`PT30S`), short (`90d`) or integer milliseconds. */
  duration: (): z.ZodType<number> =>
    z.union([z.string(), z.number()]).transform((v, ctx) => {
      const ms = parseDuration(v);
      if (ms === undefined) {
        ctx.addIssue({
          code: "custom",
          message: "must be a duration such as PT30S, 15m, 90d or milliseconds",
        });
        return z.NEVER;
      }
      return ms;
    }),
  /** A byte size (`1mb`, `64KiB`, or bytes). */
  byteSize: (): z.ZodType<number> =>
    z.union([z.string(), z.number()]).transform((v, ctx) => {
      const n = parseByteSize(v);
      if (n === undefined) {
        ctx.addIssue({ code: "custom", message: "must be a byte size such as 1mb, 64KiB or bytes" });
        return z.NEVER;
      }
      return n;
    }),
  /** An integer within [min, max]; numeric strings (environment) are accepted. */
  int: (min: number, max: number): z.ZodType<number> =>
    z.preprocess(
      numericString,
      z
        .number({ error: "must be an integer" })
        .int("must be an integer")
        .min(min, `must be >= ${min}`)
        .max(max, `must be <= ${max}`),
    ) as z.ZodType<number>,
  /** A number within [min, max]; numeric strings are accepted. */
  number: (min: number, max: number): z.ZodType<number> =>
    z.preprocess(
      numericString,
      z.number({ error: "must be a number" }).min(min, `must be >= ${min}`).max(max, `must be <= ${max}`),
    ) as z.ZodType<number>,
  /** A boolean; strings `true`/`false` are accepted. */
  bool: (): z.ZodType<boolean> =>
    z.preprocess(
      (v) => (v === "true" ? true : v === "false" ? false : v),
      z.boolean({ error: "must be true or false" }),
    ) as z.ZodType<boolean>,
  /** A non-empty string. */
  string: (): z.ZodType<string> => z.string().min(1, "must not be empty"),
  /** A string that may be empty (for lists whose empty value means "none"); refine it for its grammar. */
  text: (): z.ZodType<string> => z.string({ error: "must be a string" }),
};

function numericString(v: unknown): unknown {
  return typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
}

/** Where a resolved value came from, strongest first. */
export type PropertySource = "code" | "env" | "file" | "default";

/** The sources a platform reads properties from. */
export interface PropertySourcesInit {
  /** Values set in code (strongest). */
  code?: Record<string, unknown>;
  /** Environment (default `process.env`); key `a.b-c.dE` is read as `A_B_C_DE`. */
  env?: Record<string, string | undefined>;
  /** A JSON config file, flat (`{"a.b": 1}`) or nested (`{"a": {"b": 1}}`). */
  file?: string;
  /**
   * Where the code values came from, named in errors instead of "code" (e.g. `config module
   * ./platform.config.ts`).
   */
  codeOrigin?: string;
  /**
   * `PLATFORM_*`/`SECURITY_*` variables a module reads itself (secrets, a command's own): not warned
   * as unknown.
   */
  readDirectly?: readonly string[];
}

/** The environment variable a property key is read from: upper case, `.` and `-` become `_`. */
export function envNameOf(key: string): string {
  return key.replace(/[.-]/g, "_").toUpperCase();
}

/** Resolved, validated properties of one platform. */
export class PlatformProperties {
  constructor(
    private readonly values: ReadonlyMap<string, { value: unknown; source: PropertySource }>,
    private readonly definitions: ReadonlyMap<string, PropertyDefinition>,
    private readonly unknownEnv: readonly UnknownEnvironmentVariable[] = [],
  ) {}

  /**
   * The `PLATFORM_*` and `SECURITY_*` environment variables that name no property (ignored; the
   * platform warns of each at creation), with the nearest known name.
   */
  unknownEnvironment(): readonly UnknownEnvironmentVariable[] {
    return this.unknownEnv;
  }

  /** The declared key nearest to `key`, when close enough to be the one meant ("did you mean"). */
  suggest(key: string): string | undefined {
    return nearestName(key, [...this.definitions.keys()]);
  }

  /** The typed value of a property. */
  get<T>(definition: PropertyDefinition<T>): T {
    const entry = this.values.get(definition.key);
    if (!entry)
      throw new PlatformError("CONFIGURATION_INVALID", `Property ${definition.key} is not declared`);
    return entry.value as T;
  }

  /** True when some installed module declares `key` (optional integrations check before reading). */
  declares(key: string): boolean {
    return this.definitions.has(key);
  }

  /** Where a property's value came from. */
  sourceOf(key: string): PropertySource | undefined {
    return this.values.get(key)?.source;
  }

  /** Every declared property, for the property table and diagnostics. */
  list(): { key: string; value: unknown; source: PropertySource; definition: PropertyDefinition }[] {
    return [...this.definitions.values()].map((d) => ({
      key: d.key,
      definition: d,
      ...this.values.get(d.key)!,
    }));
  }
}

/**
 * Reads every declared property from code, environment, file and defaults (strongest first) and
 * validates it. An unknown key in code or file, or an invalid value anywhere, throws PROPERTY_INVALID
 * naming the key, the value, the source and the rule, so a typo stops start-up instead of being ignored.
 */
export function resolveProperties(
  definitions: readonly PropertyDefinition[],
  sources: PropertySourcesInit,
): PlatformProperties {
  const defs = new Map<string, PropertyDefinition>();
  for (const d of definitions) {
    if (defs.has(d.key))
      throw new PlatformError("CONFIGURATION_INVALID", `Property ${d.key} is declared twice`);
    defs.set(d.key, d);
  }
  const code = sources.code ?? {};
  const file = sources.file ? readConfigFile(sources.file, defs) : {};
  const env = sources.env ?? process.env;
  const origins = {
    code: sources.codeOrigin ?? "code",
    file: `file ${sources.file ?? ""}`,
  };
  for (const [origin, values] of [
    ["code", code],
    ["file", file],
  ] as const) {
    for (const key of Object.keys(values)) {
      if (!defs.has(key)) {
        const nearest = nearestName(key, [...defs.keys()]);
        const hint = nearest === undefined ? "" : `; did you mean ${nearest}?`;
        throw new PlatformError(
          "PROPERTY_INVALID",
          `Unknown property ${key.slice(0, 200)} (from ${origins[origin]})${hint}`,
          {
            details: {
              key,
              source: origin,
              origin: origins[origin],
              rule: "unknown key",
              ...(nearest ? { nearest } : {}),
            },
          },
        );
      }
    }
  }
  const values = new Map<string, { value: unknown; source: PropertySource }>();
  for (const d of defs.values()) {
    let raw: unknown;
    let source: PropertySource;
    const envValue = env[envNameOf(d.key)];
    if (Object.hasOwn(code, d.key)) [raw, source] = [code[d.key], "code"];
    else if (envValue !== undefined) [raw, source] = [envValue, "env"];
    else if (Object.hasOwn(file, d.key)) [raw, source] = [file[d.key], "file"];
    else {
      values.set(d.key, { value: d.default, source: "default" });
      continue;
    }
    const parsed = d.schema.safeParse(raw);
    if (!parsed.success) {
      const rule = parsed.error.issues.map((i) => i.message).join("; ");
      const shown = typeof raw === "string" ? JSON.stringify(raw) : String(JSON.stringify(raw));
      const origin =
        source === "env" ? `env ${envNameOf(d.key)}` : source === "code" ? origins.code : origins.file;
      throw new PlatformError("PROPERTY_INVALID", `Property ${d.key}=${shown} (from ${origin}) ${rule}`, {
        details: { key: d.key, value: raw, source, origin, rule },
      });
    }
    values.set(d.key, { value: parsed.data, source });
  }
  // A property whose key ends in `-env` names a variable its module reads itself (an API key).
  const named = [...values].filter(([k, v]) => k.endsWith("-env") && typeof v.value === "string");
  const unknownEnv = unknownEnvironmentVariables(env, [...defs.keys()].map(envNameOf), [
    ...(sources.readDirectly ?? []),
    ...named.map(([, v]) => v.value as string),
  ]);
  return new PlatformProperties(values, defs, unknownEnv);
}

function readConfigFile(
  path: string,
  defs: ReadonlyMap<string, PropertyDefinition>,
): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw new PlatformError("CONFIGURATION_INVALID", `Cannot read config file ${path}: not readable JSON`, {
      cause,
    });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new PlatformError("CONFIGURATION_INVALID", `Config file ${path} must hold a JSON object`);
  }
  const flat: Record<string, unknown> = {};
  const walk = (prefix: string, value: unknown): void => {
    const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
    if (prefix && (!isObject || defs.has(prefix))) {
      flat[prefix] = value;
      return;
    }
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      walk(prefix ? `${prefix}.${k}` : k, v);
  };
  walk("", parsed);
  return flat;
}
