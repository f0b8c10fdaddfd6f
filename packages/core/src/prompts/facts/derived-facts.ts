import type { PromptInput } from "../input/prompt-input.js";
import { classifyAction, classifyNetwork, classifyResource } from "../vocabulary/vocabulary.js";

/**
 * The facts the vocabulary derives from a request: the action term (method and target), the
 * resource class (target) and the network term (address). Undefined where the classifier had
 * nothing to read or no rule matched: the layouts report those as not established.
 */
export interface DerivedFacts {
  readonly action: string | undefined;
  readonly resourceClass: string | undefined;
  readonly networkTerm: string | undefined;
}

/** Classifies the request of `input` with the vocabulary's tables. */
export function deriveFacts(input: PromptInput): DerivedFacts {
  const { method, target, network } = input.request;
  return {
    action: classifyAction(method, target),
    resourceClass: classifyResource(target),
    networkTerm: classifyNetwork(network),
  };
}
