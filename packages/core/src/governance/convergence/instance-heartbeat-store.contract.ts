import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import {
  HEARTBEAT_TEXT_LIMITS,
  type InstanceHeartbeat,
  type InstanceHeartbeatStore,
  MAX_HEARTBEAT_SERVINGS,
  type ScopeServing,
} from "./instance-heartbeat-store.js";

type Factory = () => Promise<InstanceHeartbeatStore> | InstanceHeartbeatStore;

/** How many beats each race runs at one moment. */
const RACERS = 10;

function serving(registryScope: string, bundleHash: string, extra: Partial<ScopeServing> = {}): ScopeServing {
  return {
    registryScope,
    promptKey: "security-decision",
    promptVersion: "v19",
    bundleHash,
    source: "REGISTRY",
    ...extra,
  };
}

function heartbeat(
  instanceId: string,
  at: number,
  extra: Partial<InstanceHeartbeat> = {},
): InstanceHeartbeat {
  return {
    instanceId,
    startedAt: 1_000,
    at,
    serving: [
      serving("PLATFORM_GLOBAL", "sha256:aa"),
      serving("tenant-a", "sha256:bb", { source: "CANARY" }),
    ],
    ...extra,
  };
}

/** Runs `change` on an answer: frozen copies throw, own copies take it; nothing stored may change. */
function tryToChange(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

/**
 * The behaviour every InstanceHeartbeatStore adapter must show. `factory` returns a fresh, empty
 * store. Races are concurrent calls: whatever their order, one whole beat is stored per instance.
 */
export function describeInstanceHeartbeatStoreContract(
  name: string,
  factory: () => Promise<InstanceHeartbeatStore> | InstanceHeartbeatStore,
): void {
  describe(`InstanceHeartbeatStore contract: ${name}`, () => {
    describeBeats(factory);
    describePrune(factory);
    describeChecks(factory);
  });
}

function describeBeats(factory: Factory): void {
  it("lists nothing before the first beat, then the record as it was given", async () => {
    const store = await factory();
    expect(await store.list()).toEqual([]);
    await store.beat(heartbeat("node-1", 5_000));
    expect(await store.list()).toEqual([heartbeat("node-1", 5_000)]);
  });

  it("keeps the selector an instance names, and leaves it out when it names none", async () => {
    const store = await factory();
    await store.beat(heartbeat("node-1", 5_000, { selector: "REGISTRY" }));
    await store.beat(heartbeat("node-2", 5_000));
    expect(await store.list()).toEqual([
      heartbeat("node-1", 5_000, { selector: "REGISTRY" }),
      heartbeat("node-2", 5_000),
    ]);
    await store.beat(heartbeat("node-1", 6_000));
    expect((await store.list())[0]).not.toHaveProperty("selector");
  });

  it("replaces an instance's record with each beat, never appends nor merges", async () => {
    const store = await factory();
    await store.beat(heartbeat("node-1", 5_000));
    const next = heartbeat("node-1", 6_000, { serving: [serving("tenant-b", "sha256:cc")] });
    await store.beat(next);
    await store.beat({ ...next, at: 7_000, serving: [] });
    expect(await store.list()).toEqual([{ ...next, at: 7_000, serving: [] }]);
  });

  it("keeps instances apart, ordered by instance id", async () => {
    const store = await factory();
    for (const id of ["node-b", "node-a", "Node-C"])
      await store.beat(heartbeat(id, 5_000, { startedAt: id.length }));
    await store.beat(heartbeat("node-a", 9_000, { serving: [] }));
    const listed = await store.list();
    expect(listed.map((h) => h.instanceId)).toEqual(["Node-C", "node-a", "node-b"]);
    expect(listed[1]).toEqual(heartbeat("node-a", 9_000, { serving: [] }));
    expect(listed[2]).toEqual(heartbeat("node-b", 5_000, { startedAt: 6 }));
  });

  it(`leaves one whole beat of ${RACERS} concurrent beats of one instance, never a mix`, async () => {
    const store = await factory();
    const beats = Array.from({ length: RACERS }, (_, i) =>
      heartbeat("node-1", 5_000 + i, {
        startedAt: i,
        serving: Array.from({ length: 1 + (i % 4) }, (_, k) => serving(`scope-${k}`, `sha256:${i}`)),
      }),
    );
    await Promise.all(beats.map((b) => store.beat(b)));
    const listed = await store.list();
    expect(listed).toHaveLength(1);
    expect(beats).toContainEqual(listed[0]);
  });

  it("keeps its own copies: changing what was given or answered changes nothing stored", async () => {
    const store = await factory();
    const given = heartbeat("node-1", 5_000);
    await store.beat(given);
    (given.serving as ScopeServing[]).push(serving("tenant-z", "sha256:zz"));
    (given.serving[0] as { bundleHash: string }).bundleHash = "sha256:changed";
    const [read] = await store.list();
    tryToChange(() => ((read!.serving as unknown[]).length = 0));
    tryToChange(() => ((read as { at: number }).at = 1));
    expect(await store.list()).toEqual([heartbeat("node-1", 5_000)]);
  });
}

function describePrune(factory: Factory): void {
  it("removes the instances silent since `olderThan` (a beat at it stays) and answers how many", async () => {
    const store = await factory();
    for (const [id, at] of [
      ["a", 1_000],
      ["b", 2_000],
      ["c", 3_000],
      ["d", 2_999],
    ] as const)
      await store.beat(heartbeat(id, at));
    expect(await store.prune(3_000)).toBe(3);
    expect((await store.list()).map((h) => h.instanceId)).toEqual(["c"]);
    expect(await store.prune(3_000)).toBe(0);
    await store.beat(heartbeat("a", 4_000)); // an instance that beats again is back
    expect(await store.prune(0)).toBe(0);
    expect((await store.list()).map((h) => h.instanceId)).toEqual(["a", "c"]);
  });

  for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "5000" as unknown as number])
    it(`refuses prune(${String(bad)}) with VALIDATION_FAILED, removing nothing`, async () => {
      const store = await factory();
      await store.beat(heartbeat("a", 1_000));
      expect(await codeOf(store.prune(bad))).toBe("VALIDATION_FAILED");
      expect(await store.list()).toHaveLength(1);
    });
}

const long = (field: keyof typeof HEARTBEAT_TEXT_LIMITS) => "x".repeat(HEARTBEAT_TEXT_LIMITS[field] + 1);

/** Heartbeats every store refuses: wrong shapes, oversized fields, hostile values. */
const REFUSED: [string, unknown][] = [
  ["an empty instance id", heartbeat("", 5_000)],
  ["an instance id over its limit", heartbeat(long("instanceId"), 5_000)],
  ["an operator object as instance id", { ...heartbeat("x", 5_000), instanceId: { $gt: "" } }],
  ["a negative time", heartbeat("node-1", -1)],
  ["a fractional time", heartbeat("node-1", 5_000.5)],
  ["a start time that is not a number", { ...heartbeat("node-1", 5_000), startedAt: "yesterday" }],
  ["an unknown selector", { ...heartbeat("node-1", 5_000), selector: "RANDOM" }],
  ["a missing start time", { instanceId: "node-1", at: 5_000, serving: [] }],
  ["serving that is not a list", { ...heartbeat("node-1", 5_000), serving: { 0: serving("s", "h") } }],
  [
    "too many entries",
    heartbeat("n", 1, {
      serving: Array.from({ length: MAX_HEARTBEAT_SERVINGS + 1 }, (_, i) => serving(`s${i}`, "h")),
    }),
  ],
  ["an entry that is not an object", heartbeat("n", 1, { serving: [null as unknown as ScopeServing] })],
  ["an unknown source", heartbeat("n", 1, { serving: [serving("s", "h", { source: "ROGUE" as "CANARY" })] })],
  ["an empty bundle hash", heartbeat("n", 1, { serving: [serving("s", "")] })],
  ["a bundle hash over its limit", heartbeat("n", 1, { serving: [serving("s", long("bundleHash"))] })],
  ["a scope over its limit", heartbeat("n", 1, { serving: [serving(long("registryScope"), "h")] })],
  [
    "a version over its limit",
    heartbeat("n", 1, { serving: [serving("s", "h", { promptVersion: long("promptVersion") })] }),
  ],
  [
    "a missing prompt key",
    heartbeat("n", 1, { serving: [{ ...serving("s", "h"), promptKey: undefined as unknown as string }] }),
  ],
  [
    "one scope, prompt key and source twice",
    heartbeat("n", 1, { serving: [serving("s", "h1"), serving("s", "h2")] }),
  ],
];

function describeChecks(factory: Factory): void {
  for (const [what, bad] of REFUSED)
    it(`refuses ${what} with VALIDATION_FAILED, keeping the record it had`, async () => {
      const store = await factory();
      await store.beat(heartbeat("n", 1));
      expect(await codeOf(store.beat(bad as InstanceHeartbeat))).toBe("VALIDATION_FAILED");
      expect(await store.list()).toEqual([heartbeat("n", 1)]);
    });

  it("accepts every field at its limit, and stores a heartbeat's own fields only", async () => {
    const store = await factory();
    const full = (f: keyof typeof HEARTBEAT_TEXT_LIMITS) => "y".repeat(HEARTBEAT_TEXT_LIMITS[f]);
    const entries = Array.from({ length: MAX_HEARTBEAT_SERVINGS }, (_, i) =>
      serving(`${i}`.padEnd(HEARTBEAT_TEXT_LIMITS.registryScope, "s"), full("bundleHash"), {
        promptKey: full("promptKey"),
        promptVersion: full("promptVersion"),
      }),
    );
    const limit = heartbeat(full("instanceId"), 5_000, { serving: entries });
    const hostile = {
      ...limit,
      _id: "other",
      $set: { at: 0 },
      serving: entries.map((e) => ({ ...e, extra: 1 })),
    };
    await store.beat(hostile);
    await store.beat(heartbeat("$where.a", 5_000, { serving: [serving("$gt", "h", { source: "SHADOW" })] }));
    expect(await store.list()).toEqual([
      heartbeat("$where.a", 5_000, { serving: [serving("$gt", "h", { source: "SHADOW" })] }),
      limit,
    ]);
  });
}
