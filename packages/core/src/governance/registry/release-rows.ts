import { PlatformError } from "../../kernel/platform-error.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow, type ReleaseScopeHead } from "./release-registry.js";

/**
 * The scope a request names: blank or absent is PLATFORM_GLOBAL; otherwise the trimmed name.
 * VALIDATION_FAILED for a scope that is not a string of at most 200 characters.
 */
export function resolveScope(registryScope: string | undefined): string {
  if (registryScope === undefined || registryScope === null) return PLATFORM_GLOBAL_SCOPE;
  if (typeof registryScope !== "string" || registryScope.length > MAX_NAME_LENGTH)
    throw new PlatformError("VALIDATION_FAILED", "registryScope must be a name of at most 200 characters", {
      details: { fields: ["registryScope"] },
    });
  const trimmed = registryScope.trim();
  return trimmed === "" ? PLATFORM_GLOBAL_SCOPE : trimmed;
}

/** The scope's row of `promptKey` and `promptVersion`, or undefined. */
export function findRelease(
  head: Pick<ReleaseScopeHead, "releases">,
  promptKey: string,
  promptVersion: string,
): ReleaseRow | undefined {
  return head.releases.find((r) => r.promptKey === promptKey && r.promptVersion === promptVersion);
}

/** The scope's row, or RELEASE_NOT_FOUND (404). */
export function requireRelease(head: ReleaseScopeHead, promptKey: string, promptVersion: string): ReleaseRow {
  const row = findRelease(head, promptKey, promptVersion);
  if (row === undefined)
    throw new PlatformError(
      "RELEASE_NOT_FOUND",
      `No release ${promptKey} ${promptVersion} in scope ${head.registryScope}`,
      { details: { registryScope: head.registryScope, promptKey, promptVersion } },
    );
  return row;
}

/** `releases` with each changed row put in place of its version's row (new versions appended). */
export function withReleases(releases: readonly ReleaseRow[], changed: readonly ReleaseRow[]): ReleaseRow[] {
  const keyOf = (r: ReleaseRow) => `${r.promptKey}\u0000${r.promptVersion}`;
  const byKey = new Map(changed.map((r) => [keyOf(r), r]));
  const out = releases.map((r) => byKey.get(keyOf(r)) ?? r);
  const present = new Set(releases.map(keyOf));
  for (const r of changed) if (!present.has(keyOf(r))) out.push(r);
  return out;
}

/**
 * Rule 1: the other ACTIVE releases of the scope with `promoted`'s prompt key and template, which
 * a move of `promoted` to ACTIVE deprecates so that one release of the family is active.
 */
export function sameFamilyActive(releases: readonly ReleaseRow[], promoted: ReleaseRow): ReleaseRow[] {
  return releases.filter(
    (r) =>
      r.status === "ACTIVE" &&
      r.promptKey === promoted.promptKey &&
      r.templateKey === promoted.templateKey &&
      r.promptVersion !== promoted.promptVersion,
  );
}

/** The longest prompt key, version or scope name the services take. */
const MAX_NAME_LENGTH = 200;
/** The longest rationale or reason the services take. */
const MAX_TEXT_LENGTH = 2_000;

/**
 * VALIDATION_FAILED (naming the fields) when a name is not a non-blank string of at most 200
 * characters or a free text is not a string of at most 2,000: a caller that skipped the HTTP
 * layer's checks still cannot put unbounded text into the history.
 */
export function checkRequestText(names: Record<string, unknown>, texts: Record<string, unknown>): void {
  const bad = [
    ...Object.entries(names).filter(
      ([, v]) => typeof v !== "string" || v.trim() === "" || v.length > MAX_NAME_LENGTH,
    ),
    ...Object.entries(texts).filter(([, v]) => typeof v !== "string" || v.length > MAX_TEXT_LENGTH),
  ].map(([k]) => k);
  if (bad.length)
    throw new PlatformError("VALIDATION_FAILED", `Invalid ${bad.join(", ")}`, { details: { fields: bad } });
}
