import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";

/** Where the schema sits under a bundle root. */
export const MANIFEST_SCHEMA_FILE = join("schema", "prompt-bundle-manifest.schema.json");

/** Compiles the manifest schema of the bundle root `root` (`prompt-bundles/`). */
export function manifestValidator(root: string): (value: unknown) => string[] {
  const schema = JSON.parse(readFileSync(join(root, MANIFEST_SCHEMA_FILE), "utf8")) as object;
  const validate: ValidateFunction = new Ajv({ allErrors: true, strict: true }).compile(schema);
  return (value) =>
    validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || "(manifest)"} ${e.message ?? "is invalid"}`);
}
