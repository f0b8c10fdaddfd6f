import type { ErrorCodesOf, ErrorCodeTable } from "../kernel/error-code-table.js";
// A module throws the codes of the modules below it too: loading a table loads theirs.
import "../authz/authz-error-codes.js";

/** The prompts module's error codes: bundle manifests read at start-up, renders asked for by a caller. */
export const PROMPTS_ERROR_CODES = {
  PROMPT_MANIFEST_INVALID: {
    status: 500,
    meaning:
      "A bundle manifest is not valid JSON, breaks the manifest schema, or sits under a name its descriptor does not carry; `manifest` names the file.",
    remedy:
      "Fix the manifest named in `manifest` (docs/prompt-bundles.md lists every field) and start again.",
  },
  PROMPT_BUNDLE_HASH_MISMATCH: {
    status: 500,
    meaning:
      "A manifest's bundle hash, or a marker element's digest, is not what its element records hash to; the manifest was edited by hand or damaged.",
    remedy:
      "Restore the manifest from version control, or run `pnpm bundles:update` after an intended change.",
  },
  PROMPT_ELEMENT_STALE: {
    status: 500,
    meaning:
      "A runnable bundle's element digest is not what the code now produces: the prompt changed without a manifest update; `elements` names them.",
    remedy: "Review the change, then run `pnpm bundles:update` and commit the manifest with it.",
  },
  PROMPT_MANIFEST_CONFLICT: {
    status: 500,
    meaning: "Two manifests carry one prompt key and version with different bundle hashes.",
    remedy: "Keep one of the two manifests named in `manifests`.",
  },
  PROMPT_MANIFEST_MISSING: {
    status: 500,
    meaning: "A bundle this build runs has no manifest.",
    remedy: "Run `pnpm bundles:update` to write it, review it and commit it.",
  },
  PROMPT_BUNDLE_NOT_IN_BUILD: {
    status: 404,
    meaning: "The bundle version asked for is not one this build runs (unknown, or a record only).",
    remedy: "Ask for a runnable version (`platform bundles list` shows them).",
  },
  PROMPT_INPUT_INVALID: {
    status: 400,
    meaning: "A prompt input does not have the input's shape; `issues` says where.",
    remedy: "Fix the fields named in `issues` (docs/prompt-bundles.md describes the input).",
  },
} as const satisfies ErrorCodeTable;

/** The details of the prompts codes that carry any. */
export type PromptsErrorDetails = {
  PROMPT_MANIFEST_INVALID: { manifest: string; issues?: readonly string[] };
  PROMPT_BUNDLE_HASH_MISMATCH: { manifest: string; element?: string; expected: string; actual: string };
  PROMPT_ELEMENT_STALE: { manifest: string; elements: readonly string[] };
  PROMPT_MANIFEST_CONFLICT: { name: string; manifests: readonly string[] };
  PROMPT_MANIFEST_MISSING: { name: string };
  PROMPT_BUNDLE_NOT_IN_BUILD: { version: string };
  PROMPT_INPUT_INVALID: { issues: readonly string[] };
};

/** The prompts codes mapped to their details types (merged into PlatformErrorCodes). */
export type PromptsErrorCodes = ErrorCodesOf<typeof PROMPTS_ERROR_CODES, PromptsErrorDetails>;

declare module "../kernel/error-code-table.js" {
  interface PlatformErrorCodes extends PromptsErrorCodes {}
}
