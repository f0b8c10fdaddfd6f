import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of the profiled time. */
export interface FrameShare {
  frame: string;
  /** Percent of all samples where this function was on top of the stack. */
  selfPercent: number;
  /** Percent of all samples where it was anywhere on the stack. */
  totalPercent: number;
}

/**
 * Reads a `.cpuprofile` (V8's format, as `node --cpu-prof` writes it) and returns the functions
 * with the most self time and with the most total (inclusive) time, idle excluded.
 */
export function summariseCpuProfile(file: string, top = 25): { bySelf: FrameShare[]; byTotal: FrameShare[] } {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode): string => {
    const url = n.callFrame.url
      .replace(/^.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
      .replace(/^.*\/packages\//, "");
    return `${n.callFrame.functionName || "(anonymous)"} ${url ? `${url.replace(/^file:\/\//, "")}:${n.callFrame.lineNumber + 1}` : ""}`.trim();
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let counted = 0;
  for (const sample of profile.samples) {
    const node = byId.get(sample);
    if (!node || node.callFrame.functionName === "(idle)") continue;
    counted++;
    self.set(name(node), (self.get(name(node)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      if (!n) break;
      const key = name(n);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + 1);
    }
  }
  const shares = (m: Map<string, number>): FrameShare[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([frame]) => ({
        frame,
        selfPercent: (100 * (self.get(frame) ?? 0)) / counted,
        totalPercent: (100 * (total.get(frame) ?? 0)) / counted,
      }));
  return { bySelf: shares(self), byTotal: shares(total) };
}
