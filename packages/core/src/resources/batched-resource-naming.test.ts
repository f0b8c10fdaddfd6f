import { describe, expect, it } from "vitest";
import type { LogFields, Logger } from "../kernel/logger.js";
import { BatchedResourceNaming } from "./batched-resource-naming.js";
import { offlineResourceName } from "./offline-resource-namer.js";
import type { ResourceNamer } from "./resource-namer.js";
import type { ResourceName, ScannedResource } from "./scanned-resource.js";

/** `count` URL resources `GET /api/thing{i}s/{id}`, each distinct. */
function resources(count: number): ScannedResource[] {
  return Array.from({ length: count }, (_, i) => ({
    resourceIdentifier: `/api/thing${i}s/{id}`,
    resourceType: "URL" as const,
    httpMethod: "GET" as const,
    friendlyName: `app.GET /api/thing${i}s/{id}`,
    description: `URL: [GET] /api/thing${i}s/{id}`,
    serviceOwner: "app",
  }));
}

/** A namer that answers `Name <identifier>` unless the script says otherwise for a call (by call number). */
class ScriptedNamer implements ResourceNamer {
  readonly id = "scripted";
  readonly calls: string[][] = [];
  constructor(
    private readonly script: Record<
      number,
      (batch: readonly ScannedResource[], signal: AbortSignal) => unknown
    > = {},
  ) {}

  async name(batch: readonly ScannedResource[], signal: AbortSignal): Promise<readonly ResourceName[]> {
    this.calls.push(batch.map((r) => r.resourceIdentifier));
    const play = this.script[this.calls.length];
    if (play) return (await play(batch, signal)) as ResourceName[];
    return batch.map((r) => ({ friendlyName: `Name ${r.resourceIdentifier}`, description: "Proposed" }));
  }
}

class RecordingLogger implements Logger {
  readonly warnings: LogFields[] = [];
  info(): void {}
  error(): void {}
  warn(_message: string, fields: LogFields = {}): void {
    this.warnings.push(fields);
  }
}

const proposed = (r: ScannedResource): ResourceName => ({
  friendlyName: `Name ${r.resourceIdentifier}`,
  description: "Proposed",
});
const fallback = (r: ScannedResource): ResourceName => offlineResourceName(r);

describe("BatchedResourceNaming", () => {
  it("asks the namer in batches of 10 and answers one name per resource, in order", async () => {
    const namer = new ScriptedNamer();
    const all = resources(23);
    const names = await new BatchedResourceNaming({ namer }).nameAll(all);
    expect(namer.calls.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(namer.calls.flat()).toEqual(all.map((r) => r.resourceIdentifier));
    expect(names).toEqual(all.map(proposed));
  });

  it("retries a failed batch once; a batch that fails twice takes the offline fallback names, the others keep theirs", async () => {
    const fail = () => {
      throw Object.assign(new Error("boom"), { code: "DECISION_MODEL_UNAVAILABLE" });
    };
    // Call 2 (batch 2) fails, call 3 (its retry) fails too; call 4 is batch 3.
    const namer = new ScriptedNamer({ 2: fail, 3: fail });
    const logger = new RecordingLogger();
    const all = resources(25);
    const names = await new BatchedResourceNaming({ namer, logger }).nameAll(all);
    expect(namer.calls.map((c) => c[0])).toEqual([
      "/api/thing0s/{id}",
      "/api/thing10s/{id}",
      "/api/thing10s/{id}",
      "/api/thing20s/{id}",
    ]);
    expect(names).toEqual([
      ...all.slice(0, 10).map(proposed),
      ...all.slice(10, 20).map(fallback),
      ...all.slice(20).map(proposed),
    ]);
    expect(names[10]).toEqual({
      friendlyName: "View a thing10",
      description: "View a thing10 (GET /api/thing10s/{id})",
    });
    expect(logger.warnings).toEqual([
      expect.objectContaining({
        namer: "scripted",
        attempt: 1,
        code: "DECISION_MODEL_UNAVAILABLE",
        next: "retry",
      }),
      expect.objectContaining({ attempt: 2, next: "fallback names", first: "/api/thing10s/{id}", size: 10 }),
    ]);
  });

  it("keeps the retry's answer when only the first attempt failed", async () => {
    const namer = new ScriptedNamer({ 1: () => Promise.reject(new Error("network")) });
    const all = resources(3);
    expect(await new BatchedResourceNaming({ namer }).nameAll(all)).toEqual(all.map(proposed));
    expect(namer.calls).toHaveLength(2);
  });

  it.each([
    ["too few names", (b: readonly ScannedResource[]) => b.slice(1).map(proposed)],
    ["too many names", (b: readonly ScannedResource[]) => [...b, ...b].map(proposed)],
    ["no array", () => ({ names: [] })],
    ["nothing", () => undefined],
  ])("treats %s as a failed attempt", async (_label, answer) => {
    const namer = new ScriptedNamer({ 1: answer, 2: answer });
    const all = resources(4);
    expect(await new BatchedResourceNaming({ namer }).nameAll(all)).toEqual(all.map(fallback));
    expect(namer.calls).toHaveLength(2);
  });

  it("cleans every proposed name and falls back alone for one that is empty or not a name", async () => {
    const namer = new ScriptedNamer({
      1: () => [
        {
          friendlyName: "<b>Cancel</b> an\u202e order\u0000",
          description: "<script>alert(1)</script>Cancels it",
        },
        { friendlyName: "   ", description: "blank" },
        { friendlyName: 42, description: "not text" },
        null,
      ],
    });
    const all = resources(4);
    const names = await new BatchedResourceNaming({ namer }).nameAll(all);
    expect(names[0]).toEqual({ friendlyName: "Cancel an order", description: "alert(1) Cancels it" });
    expect(names.slice(1)).toEqual(all.slice(1).map(fallback));
    expect(namer.calls).toHaveLength(1);
  });

  it("gives up on an attempt past its deadline, even a namer that ignores its signal", async () => {
    const never = () => new Promise<never>(() => {});
    const namer = new ScriptedNamer({ 1: never, 2: never });
    const all = resources(2);
    const started = Date.now();
    const names = await new BatchedResourceNaming({ namer, attemptTimeoutMs: 30 }).nameAll(all);
    expect(names).toEqual(all.map(fallback));
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("ends within its budget: the batches left take fallback names without a call", async () => {
    const slow = (_b: readonly ScannedResource[], signal: AbortSignal) =>
      new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    const namer = new ScriptedNamer({ 1: slow, 2: slow });
    const all = resources(30);
    const names = await new BatchedResourceNaming({ namer, attemptTimeoutMs: 10_000, budgetMs: 40 }).nameAll(
      all,
    );
    expect(names).toEqual(all.map(fallback));
    expect(namer.calls).toHaveLength(1);
  });

  it("answers nothing for nothing, without calling the namer", async () => {
    const namer = new ScriptedNamer();
    expect(await new BatchedResourceNaming({ namer }).nameAll([])).toEqual([]);
    expect(namer.calls).toEqual([]);
  });
});
