import type { IndexedTarget, TrieNode } from "./path-pattern-index.js";

/** Literal fan-outs above this size are looked up through a Map, smaller ones by comparison in place. */
const SCAN_LIMIT = 4;

/**
 * The path trie laid out flat for lookups: nodes numbered depth-first (a subtree is a contiguous
 * range), every per-node field in a typed array, and the targets copied in the same order. With
 * thousands of policies a lookup then reads a few adjacent array slots instead of a chain of
 * scattered objects, which is what its cost is made of once the trie outgrows the CPU caches.
 */
export class FlatPathTrie<T, H extends object> {
  private readonly named: Int32Array;
  private readonly wild: Int32Array;
  private readonly litStart: Int32Array;
  private readonly litCount: Int32Array;
  private readonly litKeys: string[] = [];
  private readonly litChild: number[] = [];
  private readonly litMaps: (Map<string, number> | undefined)[];
  private readonly termStart: Int32Array;
  private readonly termEnd: Int32Array;
  private readonly deepStart: Int32Array;
  private readonly deepEnd: Int32Array;
  private readonly targets: IndexedTarget<T, H>[] = [];

  constructor(root: TrieNode<T, H>) {
    const nodeCount = countNodes(root);
    this.named = new Int32Array(nodeCount).fill(-1);
    this.wild = new Int32Array(nodeCount).fill(-1);
    this.litStart = new Int32Array(nodeCount);
    this.litCount = new Int32Array(nodeCount);
    this.litMaps = new Array(nodeCount).fill(undefined);
    this.termStart = new Int32Array(nodeCount);
    this.termEnd = new Int32Array(nodeCount);
    this.deepStart = new Int32Array(nodeCount);
    this.deepEnd = new Int32Array(nodeCount);
    let next = 0;
    const place = (at: TrieNode<T, H>): number => {
      const id = next++;
      this.deepStart[id] = this.targets.length;
      for (const t of at.deep ?? []) this.targets.push({ ...t });
      this.deepEnd[id] = this.targets.length;
      this.termStart[id] = this.targets.length;
      if (at.terminal1) this.targets.push({ ...at.terminal1 });
      for (const t of at.terminal ?? []) this.targets.push({ ...t });
      this.termEnd[id] = this.targets.length;
      const literals: [string, TrieNode<T, H>][] = at.literal
        ? [...at.literal]
        : at.onlyKey !== undefined && at.only
          ? [[at.onlyKey, at.only]]
          : [];
      const children = literals.map(([key, child]) => [key, place(child)] as const);
      if (children.length > SCAN_LIMIT) {
        this.litMaps[id] = new Map(children);
      } else {
        this.litStart[id] = this.litKeys.length;
        this.litCount[id] = children.length;
        for (const [key, child] of children) {
          this.litKeys.push(key);
          this.litChild.push(child);
        }
      }
      if (at.named) this.named[id] = place(at.named);
      if (at.wild) this.wild[id] = place(at.wild);
      return id;
    };
    place(root);
  }

  /**
   * Gathers every target the trie cannot rule out for a path split into segments (splitPath). Called
   * with the parts and `out`; it recurses on itself from node `n` at segment `at` (one function per
   * request, not a front and a walk).
   */
  collect(parts: readonly string[], out: IndexedTarget<T, H>[], n = 0, at = 0): void {
    const targets = this.targets;
    for (let i = this.deepStart[n]!, e = this.deepEnd[n]!; i < e; i++) out.push(targets[i]!);
    if (at >= parts.length) {
      for (let i = this.termStart[n]!, e = this.termEnd[n]!; i < e; i++) out.push(targets[i]!);
      return;
    }
    const segment = parts[at]!;
    const next = at + 1;
    const map = this.litMaps[n];
    if (map !== undefined) {
      const child = map.get(segment);
      if (child !== undefined) this.collect(parts, out, child, next);
    } else {
      for (let i = this.litStart[n]!, e = i + this.litCount[n]!; i < e; i++) {
        if (this.litKeys[i] === segment) {
          this.collect(parts, out, this.litChild[i]!, next);
          break;
        }
      }
    }
    const named = this.named[n]!;
    if (named >= 0 && segment !== "") this.collect(parts, out, named, next);
    const wild = this.wild[n]!;
    if (wild >= 0) this.collect(parts, out, wild, next);
  }
}

function countNodes<T, H extends object>(at: TrieNode<T, H>): number {
  let n = 1;
  if (at.literal) for (const child of at.literal.values()) n += countNodes(child);
  else if (at.only) n += countNodes(at.only);
  if (at.named) n += countNodes(at.named);
  if (at.wild) n += countNodes(at.wild);
  return n;
}
