import type { BundleElementId, ElementSource } from "../hashing/bundle-element.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../hashing/canonical-json.js";
import { parsePromptInput } from "../input/prompt-input.js";
import type { BundleDefinition } from "./bundle-definition.js";

/** One golden render: the user prompt of one golden input under one budget profile. */
export interface GoldenRender {
  readonly input: string;
  readonly profile: string;
  readonly user: string;
}

/** Golden inputs by name, as parsed JSON (their files' content). */
export type GoldenInputs = ReadonlyMap<string, unknown>;

/** The file name a golden render is committed under: `<input>.<profile>.txt`. */
export function goldenRenderFile(render: Pick<GoldenRender, "input" | "profile">): string {
  return `${render.input}.${render.profile}.txt`;
}

/** Renders every golden input of `bundle` under every budget profile, in declared order. */
export function goldenRenders(bundle: BundleDefinition, inputs: GoldenInputs): GoldenRender[] {
  return bundle.goldenInputs.flatMap((name) => {
    if (!inputs.has(name))
      throw new Error(`golden input ${name} of ${bundle.descriptor.promptVersion} is missing`);
    const input = parsePromptInput(inputs.get(name));
    return bundle.budgets.map((profile) => ({
      input: name,
      profile: profile.name,
      user: bundle.render(input, profile).user,
    }));
  });
}

const present = (content: JsonValue): ElementSource => ({ state: "PRESENT", content });

/**
 * The eleven element sources of a runnable bundle, each from the code the bundle runs. B3 holds,
 * per golden input and profile, the digests of the input and of its user render; the L2 renders
 * are the second analysis, which is why B11 is INCLUDED (in B3).
 */
export function elementSources(
  bundle: BundleDefinition,
  inputs: GoldenInputs,
): Record<BundleElementId, ElementSource> {
  const renders = goldenRenders(bundle, inputs).map((r) => ({
    input: r.input,
    inputDigest: sha256Hex(canonicalJson(inputs.get(r.input) as JsonValue)),
    profile: r.profile,
    userDigest: sha256Hex(r.user),
  }));
  return {
    B1: present({ profiles: bundle.budgets.map((p) => ({ profile: p.name, text: bundle.renderSystem(p) })) }),
    B2: bundle.dictionary === undefined ? { state: "ABSENT" } : present(bundle.dictionary),
    B3: present({ renders }),
    B4: present(bundle.outputFormat as unknown as JsonValue),
    B5: bundle.minimumActionRules === undefined ? { state: "ABSENT" } : present(bundle.minimumActionRules),
    B6: present(bundle.responseInspector),
    B7: present(bundle.retrieval),
    B8: present(bundle.budgets as unknown as JsonValue),
    B9: { state: "ABSENT" },
    B10: present({ version: bundle.vocabularyVersion, classifiers: bundle.classifiers }),
    B11: { state: "INCLUDED" },
  };
}
