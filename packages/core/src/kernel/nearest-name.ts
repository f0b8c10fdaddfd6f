/**
 * The candidate nearest to `name` (case-insensitive edit distance), when it is close enough to be the
 * intended one: at most 2 edits, or a quarter of the candidate's length, and never more than 6.
 * Names over 200 characters match nothing (the distance is bounded work).
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), MAX_EDITS);
    if (distance <= MAX_EDITS && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.candidate.length / 4))
    ? best.candidate
    : undefined;
}

const MAX_EDITS = 6;

/** Levenshtein distance, giving up (returning `cap + 1`) once it exceeds `cap` or for very long names. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap || a.length > 200) return cap + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}
