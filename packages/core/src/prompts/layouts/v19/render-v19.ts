import type { BudgetProfile } from "../../bundles/budget-profile.js";
import type { PromptInput } from "../../input/prompt-input.js";
import { countTokens } from "../../tokens/token-counter.js";
import { sectionHeader, V19_SECTIONS, type V19Limits, type V19Section } from "./v19-sections.js";

/** An empty P0 section still renders, as its header and this line; empty P1/P2 sections are left out. */
export const EMPTY_SECTION_TEXT = "(none)";

/**
 * The order sections are cut in when the user prompt exceeds its budget: P2 sections from the last
 * to the first, then P1 the same way. P0 sections are never cut.
 */
export function v19CutOrder(sections: readonly V19Section[] = V19_SECTIONS): string[] {
  const byPriority = (p: string) =>
    sections
      .filter((s) => s.priority === p)
      .map((s) => s.name)
      .reverse();
  return [...byPriority("P2"), ...byPriority("P1")];
}

function renderSections(input: PromptInput, limits: V19Limits, omitted: readonly string[]): string {
  const blocks: string[] = [];
  for (const section of V19_SECTIONS) {
    if (omitted.includes(section.name)) continue;
    let lines = section.lines(input, limits);
    if (section.name === "EXPLICIT_MISSING_KNOWLEDGE")
      lines = [...lines, ...omitted.map((name) => `- section ${name}: omitted for budget`)];
    if (lines.length === 0 && section.priority !== "P0") continue;
    blocks.push([sectionHeader(section.name), ...(lines.length ? lines : [EMPTY_SECTION_TEXT])].join("\n"));
  }
  return `${blocks.join("\n\n")}\n`;
}

/**
 * Renders the v19 user prompt of `input` within `profile.userTokens`: every section in order, then,
 * while the text is over budget, cuts whole sections in `v19CutOrder` and names each cut one in
 * EXPLICIT_MISSING_KNOWLEDGE.
 */
export function renderV19User(
  input: PromptInput,
  profile: BudgetProfile,
  limits: V19Limits,
): { user: string; userTokens: number; omitted: string[]; overBudget: boolean } {
  const omitted: string[] = [];
  let user = renderSections(input, limits, omitted);
  let userTokens = countTokens(user);
  for (const next of v19CutOrder()) {
    if (userTokens <= profile.userTokens) break;
    const present = V19_SECTIONS.find((s) => s.name === next)!.lines(input, limits).length > 0;
    if (!present) continue;
    omitted.push(next);
    user = renderSections(input, limits, omitted);
    userTokens = countTokens(user);
  }
  return { user, userTokens, omitted, overBudget: userTokens > profile.userTokens };
}
