import type { Policy } from "../../authz/policy/policy.js";
import type { PolicyRepository } from "../../authz/policy/policy-repository.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";

/** Where the current policy set's hash comes from: present only on a host with policy sets. */
export interface PolicySetSource {
  /** SHA-256 (hex) of the policy set the platform decides with now. */
  currentHash(): Promise<string>;
}

/** A policy as the hash reads it: id, version and content; no store bookkeeping (sequence, timestamps). */
function hashedForm(p: Policy): JsonValue {
  const { createdSeq: _seq, createdAt: _created, updatedAt: _updated, ...content } = p;
  // Through JSON: drops undefined fields, as the stored form would.
  return JSON.parse(JSON.stringify(content)) as JsonValue;
}

/**
 * The policy set hash: SHA-256 over the RFC 8785 canonical JSON of every policy (id, version and
 * content; not its creation sequence or timestamps), ordered by id, so the same policies hash the
 * same on every instance and store.
 */
export function policySetHashOf(policies: readonly Policy[]): string {
  const ordered = [...policies].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sha256Hex(canonicalJson(ordered.map(hashedForm)));
}

/** The PolicySetSource over the authorization module's PolicyRepository (every stored policy). */
export function policySetSourceOf(repository: Pick<PolicyRepository, "findAll">): PolicySetSource {
  return { currentHash: async () => policySetHashOf(await repository.findAll()) };
}
