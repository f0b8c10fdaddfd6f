import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { writeScopeHead } from "./head-writer.js";
import { InMemoryReleaseRegistry } from "./in-memory-release-registry.js";

/** A registry another writer always beats: every compare-and-set is lost. */
class AlwaysBeaten extends InMemoryReleaseRegistry {
  tries = 0;
  override async replaceHead(): Promise<undefined> {
    this.tries += 1;
    return undefined;
  }
}

describe("writeScopeHead", () => {
  it("retries a lost race from a fresh read, then answers RELEASE_REGISTRY_BUSY with nothing written", async () => {
    const registry = new AlwaysBeaten();
    let plans = 0;
    const write = writeScopeHead(
      registry,
      "S",
      async () => {
        plans += 1;
        return { next: { releases: [], openExecutions: [] }, result: 1 };
      },
      { attempts: 3, maxDelayMs: 1 },
    );
    expect(await codeOf(write)).toBe("RELEASE_REGISTRY_BUSY");
    expect([registry.tries, plans]).toEqual([3, 3]);
    expect((await registry.head("S")).revision).toBe(0);
  });

  it("writes nothing for a plan without a head, and writes once otherwise", async () => {
    const registry = new InMemoryReleaseRegistry();
    expect(await writeScopeHead(registry, "S", async () => ({ result: "no" }))).toMatchObject({
      result: "no",
      written: false,
    });
    const out = await writeScopeHead(registry, "S", async () => ({
      next: { releases: [], openExecutions: [] },
      result: "yes",
    }));
    expect(out).toMatchObject({ result: "yes", written: true, head: { revision: 1 } });
  });
});
