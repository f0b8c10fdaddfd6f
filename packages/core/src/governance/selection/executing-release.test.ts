import { describe, expect, it } from "vitest";
import type { ReleaseRow } from "../registry/release-registry.js";
import { executingRelease } from "./executing-release.js";

function row(promptVersion: string, status: ReleaseRow["status"], at?: number, promptKey = "k"): ReleaseRow {
  return {
    registryScope: "PLATFORM_GLOBAL",
    promptKey,
    templateKey: `t-${promptVersion}`,
    promptVersion,
    status,
    contractVersion: "1",
    artifactHash: `h-${promptVersion}`,
    rollbackTargets: [],
    ...(at === undefined ? {} : { approval: { by: "a", at, rationale: "r" } }),
    registeredAt: 0,
    updatedAt: 0,
  };
}

describe("executingRelease", () => {
  it("answers the ACTIVE row approved last, whatever the order of the rows", () => {
    const rows = [row("v20", "ACTIVE", 10), row("v19", "ACTIVE", 20), row("v21", "CANARY", 30)];
    expect(executingRelease(rows, "k", "ACTIVE")?.promptVersion).toBe("v19");
    expect(executingRelease([...rows].reverse(), "k", "ACTIVE")?.promptVersion).toBe("v19");
  });

  it("breaks a tie, and rows without an approval, by the later version name", () => {
    expect(
      executingRelease([row("v19", "ACTIVE", 5), row("v20", "ACTIVE", 5)], "k", "ACTIVE")?.promptVersion,
    ).toBe("v20");
    expect(executingRelease([row("v20", "ACTIVE"), row("v19", "ACTIVE")], "k", "ACTIVE")?.promptVersion).toBe(
      "v20",
    );
    expect(
      executingRelease([row("v20", "ACTIVE"), row("v19", "ACTIVE", 1)], "k", "ACTIVE")?.promptVersion,
    ).toBe("v19");
  });

  it("reads only the prompt key and status asked for", () => {
    const rows = [row("v20", "ACTIVE", 10, "other"), row("v19", "SHADOW", 20), row("v18", "DEPRECATED", 30)];
    expect(executingRelease(rows, "k", "ACTIVE")).toBeUndefined();
    expect(executingRelease(rows, "k", "SHADOW")?.promptVersion).toBe("v19");
    expect(executingRelease([], "k", "CANARY")).toBeUndefined();
  });
});
