import type { BenchDecision, BenchRequest } from "./bench-types.js";
import type { PdpUnderTest } from "./pdp-under-test.js";
import type { ReferenceDecision } from "./reference-evaluator.js";
import type { ReferencePdp } from "./reference-pdp.js";

/** One request on which ours and the reference disagree (or ours threw). */
export interface Mismatch {
  readonly index: number;
  readonly request: BenchRequest;
  readonly ours: BenchDecision | { readonly error: string };
  readonly reference: ReferenceDecision;
}

/** What the comparison pass found over the whole stream. */
export interface Comparison {
  readonly compared: number;
  readonly mismatches: number;
  /** The first few, for the report. */
  readonly samples: readonly Mismatch[];
  /** The reference's grants by stream index, prefix-summed: grants in [a, b) = prefix[b] - prefix[a]. */
  readonly grantedPrefix: Uint32Array;
  /** Requests some policy applied to, per the reference (FIRST_APPLICABLE: a target matched). */
  readonly decidedByPolicy: number;
  /** Denials ours returned in this pass (for the audit check). */
  readonly oursDenied: number;
}

const SAMPLE_LIMIT = 10;

/**
 * Decides every request of the stream with ours and with the reference, outside any timed loop, and
 * compares granted and policyId.
 */
export async function compareWithReference(
  pdp: PdpUnderTest,
  reference: ReferencePdp,
  requests: readonly BenchRequest[],
): Promise<Comparison> {
  const grantedPrefix = new Uint32Array(requests.length + 1);
  const samples: Mismatch[] = [];
  let mismatches = 0;
  let decidedByPolicy = 0;
  let oursDenied = 0;
  for (let index = 0; index < requests.length; index++) {
    const request = requests[index] as BenchRequest;
    const expected = reference.decideSync(request);
    grantedPrefix[index + 1] = (grantedPrefix[index] ?? 0) + (expected.granted ? 1 : 0);
    if (expected.policyId !== undefined) decidedByPolicy++;
    let ours: BenchDecision | { error: string };
    try {
      ours = await pdp.decide(request);
    } catch (error) {
      ours = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
    if ("granted" in ours && !ours.granted) oursDenied++;
    const same =
      "granted" in ours &&
      ours.granted === expected.granted &&
      (ours.policyId ?? undefined) === expected.policyId;
    if (same) continue;
    mismatches++;
    if (samples.length < SAMPLE_LIMIT) samples.push({ index, request, ours, reference: expected });
  }
  return { compared: requests.length, mismatches, samples, grantedPrefix, decidedByPolicy, oursDenied };
}

/** The reference's grants over `count` requests from `start`, wrapping around the stream. */
export function expectedGrants(prefix: Uint32Array, start: number, count: number): number {
  const n = prefix.length - 1;
  const total = prefix[n] ?? 0;
  const from = start % n;
  const cycles = Math.floor(count / n);
  const rest = count - cycles * n;
  const end = from + rest;
  const partial =
    end <= n
      ? (prefix[end] ?? 0) - (prefix[from] ?? 0)
      : total - (prefix[from] ?? 0) + (prefix[end - n] ?? 0);
  return cycles * total + partial;
}

/** One line for a mismatch: who asked what, and both answers. */
export function describeMismatch(m: Mismatch): string {
  const r = m.request;
  const who = r.authentication
    ? `${r.authentication.userId} [${r.authentication.authorities.join(",")}]`
    : "anonymous";
  const ours = "error" in m.ours ? `threw ${m.ours.error}` : `${m.ours.granted} ${m.ours.policyId ?? "-"}`;
  return `#${m.index} ${r.method} ${r.path} from ${r.remoteAddress} by ${who}: ours ${ours}, reference ${m.reference.granted} ${m.reference.policyId ?? "-"}`;
}
