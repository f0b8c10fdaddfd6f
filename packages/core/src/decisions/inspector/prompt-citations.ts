/**
 * What an answer may cite from a user prompt: the fact IDs at the end of its lines (v20:
 * `9. network: EXTERNAL (203.0.113.54) {F9}`), or the names of the sections whose headers it
 * carries (v19: `=== LOCATION CONTEXT ===` → `LOCATION_CONTEXT`).
 */
export function citableRefs(
  userPrompt: string,
  kind: "fact-ids-present-in-prompt" | "section-names",
): Set<string> {
  const pattern = kind === "section-names" ? /^=== (.+) ===$/gm : /\{(F\d+)\}$/gm;
  return new Set(
    [...userPrompt.matchAll(pattern)].map((m) =>
      kind === "section-names" ? m[1]!.replaceAll(" ", "_") : m[1]!,
    ),
  );
}
