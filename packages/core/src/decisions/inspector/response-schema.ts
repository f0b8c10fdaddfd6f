import { Ajv, type ValidateFunction } from "ajv";
import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { ResponseField } from "../../prompts/bundles/output-format.js";
import type { InspectorDefinition } from "./inspector-definition.js";

const ajv = new Ajv({ allErrors: true, strict: true });
const compiled = new WeakMap<BundleDefinition, ValidateFunction>();

function fieldSchema(field: ResponseField, definition: InspectorDefinition): object {
  switch (field.type) {
    case "number":
      return { type: "number" };
    case "string[]":
      return { type: "array", items: { type: "string", maxLength: 200 }, maxItems: 64 };
    default:
      return field.name === "reasoning"
        ? { type: "string", maxLength: definition.reasoningMaxChars }
        : { type: "string" };
  }
}

/**
 * The JSON schema of an answer to `bundle`: one object with exactly the output format's fields
 * (element B4), each of its declared type, the B6 required fields present and reasoning within
 * B6's length. Ranges and the action vocabulary are checked apart, so each has its own refusal code.
 */
export function answerSchema(bundle: BundleDefinition, definition: InspectorDefinition): object {
  const fields = bundle.outputFormat.fields;
  return {
    type: "object",
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f, definition)])),
    required: [...new Set([...definition.requiredFields, ...fields.map((f) => f.name)])],
    additionalProperties: false,
  };
}

/** The compiled answer schema of `bundle`, compiled once per bundle. */
export function answerValidator(bundle: BundleDefinition, definition: InspectorDefinition): ValidateFunction {
  let validate = compiled.get(bundle);
  if (!validate) {
    validate = ajv.compile(answerSchema(bundle, definition));
    compiled.set(bundle, validate);
  }
  return validate;
}
