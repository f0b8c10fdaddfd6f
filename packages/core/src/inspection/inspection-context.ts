import type { SentPrompt } from "../decisions/evidence/sealed-evidence-store.js";
import type { BudgetProfile } from "../prompts/bundles/budget-profile.js";
import type { BundleDefinition, PromptLayout } from "../prompts/bundles/bundle-definition.js";
import type { PromptRender } from "../prompts/layouts/prompt-render.js";
import { renderV20User } from "../prompts/layouts/v20/render-v20.js";
import type { Dictionary } from "../prompts/layouts/v20/v20-dictionary.js";
import type { BundleCatalog } from "../prompts/manifest/bundle-catalog.js";
import type { InspectedPackage } from "./inspected-package.js";
import type { FindingLocation } from "./inspection-result.js";
import { type PromptLine, readPromptLines } from "./prompt-lines.js";

/** The v20 layout's name. */
export const V20_LAYOUT: PromptLayout = "v20-dictionary-blocks";

/** One sent prompt as the checks read it: its lines, and the bundle's render of the sealed context. */
export interface PromptView {
  readonly index: number;
  readonly prompt: SentPrompt;
  readonly lines: readonly PromptLine[];
  /** What the package's bundle renders from the sealed context for this layer; undefined when it cannot. */
  readonly expected: PromptRender | undefined;
  /** The location of a line of the user prompt (or of the whole part). */
  at(line?: number, part?: "system" | "user"): FindingLocation;
}

/** Why the v20 checks do not compare: NOT_APPLICABLE (another layout) or unverifiable with a reason. */
export type V20Scope =
  | { readonly run: true; readonly dictionary: Dictionary }
  | { readonly run: false; readonly notApplicable: true }
  | { readonly run: false; readonly notApplicable: false; readonly reason: string; readonly detail: string };

/** What every check of one package reads, worked out once. */
export interface InspectionContext {
  readonly pkg: InspectedPackage;
  readonly layout: PromptLayout | undefined;
  /** The package's bundle when this build runs it with the package's bundle hash. */
  readonly bundle: BundleDefinition | undefined;
  /** Why the prompts cannot be rendered again (no runnable bundle of that version and hash). */
  readonly unreproducible?: { readonly reason: string; readonly detail: string };
  readonly v20: V20Scope;
  readonly prompts: readonly PromptView[];
  /** Dotted input paths masked before the model saw them. */
  readonly redacted: ReadonlySet<string>;
}

function bundleOf(pkg: InspectedPackage, catalog: BundleCatalog) {
  const entry = catalog.find(pkg.metadata.bundleVersion);
  if (entry === undefined)
    return {
      reason: "BUNDLE_NOT_IN_CATALOG",
      detail: `bundle ${pkg.metadata.bundleVersion} is not in this build's catalog`,
    };
  if (entry.manifest.bundleHash !== pkg.metadata.bundleHash)
    return {
      layout: entry.manifest.layout,
      reason: "BUNDLE_HASH_DIFFERS",
      detail: `the package ran ${pkg.metadata.bundleVersion} with hash ${pkg.metadata.bundleHash.slice(0, 12)}, this build's is ${entry.manifest.bundleHash.slice(0, 12)}`,
    };
  if (entry.bundle === undefined)
    return {
      layout: entry.manifest.layout,
      reason: "BUNDLE_NOT_RUNNABLE",
      detail: `${pkg.metadata.bundleVersion} is a record, not run by this build`,
    };
  return { layout: entry.manifest.layout, bundle: entry.bundle };
}

const systemTexts = new WeakMap<BundleDefinition, Map<BudgetProfile, string>>();

/** A bundle's system text of a profile, rendered once: it depends on the bundle and profile only, never on the input. */
function systemText(bundle: BundleDefinition, profile: BudgetProfile): string {
  let texts = systemTexts.get(bundle);
  if (texts === undefined) {
    texts = new Map();
    systemTexts.set(bundle, texts);
  }
  let text = texts.get(profile);
  if (text === undefined) {
    text = bundle.renderSystem(profile);
    texts.set(profile, text);
  }
  return text;
}

/**
 * What `bundle` renders from the sealed context for `prompt`'s layer. A dictionary bundle's user
 * prompt is drawn by its dictionary and its system text taken once per profile (what its `render`
 * does, without counting the system tokens per package); another layout renders whole.
 */
function expectedRender(
  bundle: BundleDefinition | undefined,
  pkg: InspectedPackage,
  prompt: SentPrompt,
): PromptRender | undefined {
  const profile = bundle?.budgets.find((p) => p.family === prompt.layer);
  if (!bundle || !profile) return undefined;
  if (bundle.layout !== V20_LAYOUT || bundle.dictionary === undefined)
    return bundle.render(pkg.input, profile);
  const user = renderV20User(pkg.input, profile, bundle.dictionary as unknown as Dictionary);
  // Not a spread: it would read `userTokens`, which a render that fits by its bytes counts only when
  // asked (token counting was a fifth of the inspector's time); its descriptors keep the getter.
  return Object.defineProperties(
    { system: systemText(bundle, profile), systemTokens: Number.NaN },
    Object.getOwnPropertyDescriptors(user),
  ) as PromptRender;
}

function v20ScopeOf(
  layout: PromptLayout | undefined,
  found: ReturnType<typeof bundleOf>,
  prompts: readonly PromptView[],
): V20Scope {
  const looksV20 = prompts.some((p) =>
    p.lines.some((l) => l.kind === "header" && l.block === "PAST RECORDS"),
  );
  if (layout !== undefined && layout !== V20_LAYOUT) return { run: false, notApplicable: true };
  if (layout === undefined && !looksV20) return { run: false, notApplicable: true };
  if (!("bundle" in found) || found.bundle?.dictionary === undefined)
    return {
      run: false,
      notApplicable: false,
      reason: "FOREIGN_DICTIONARY",
      detail: `${"detail" in found ? found.detail : "no dictionary"}: the v20 checks cannot hold it to this build's dictionary`,
    };
  const dictionary = found.bundle.dictionary as unknown as Dictionary;
  const first = `[${dictionary.blocks[0]?.name}]`;
  const foreign = prompts.find((p) => !p.lines.some((l) => l.text === first));
  if (foreign)
    return {
      run: false,
      notApplicable: false,
      reason: "FOREIGN_RENDER",
      detail: `the ${foreign.prompt.layer} user prompt was not drawn by the dictionary-blocks render (no ${first} block)`,
    };
  return { run: true, dictionary };
}

/** Works out what the checks of `pkg` read: its bundle from `catalog`, its lines, the expected renders. */
export function inspectionContextOf(pkg: InspectedPackage, catalog: BundleCatalog): InspectionContext {
  const found = bundleOf(pkg, catalog);
  const bundle = "bundle" in found ? found.bundle : undefined;
  const prompts = pkg.prompts.map(
    (prompt, index): PromptView => ({
      index,
      prompt,
      lines: readPromptLines(prompt.user),
      expected: expectedRender(bundle, pkg, prompt),
      at: (line, part = "user") => ({
        prompt: index,
        layer: prompt.layer,
        part,
        ...(line === undefined ? {} : { line }),
      }),
    }),
  );
  const layout = found.layout;
  return {
    pkg,
    layout,
    bundle,
    ...("reason" in found ? { unreproducible: { reason: found.reason!, detail: found.detail! } } : {}),
    v20: v20ScopeOf(layout, found, prompts),
    prompts,
    redacted: new Set(pkg.metadata.redacted),
  };
}
