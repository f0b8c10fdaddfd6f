import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatSurfaceReport, measurePublicSurface, surfaceProblems } from "./public-surface.js";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "public-surface");

describe("measurePublicSurface on the fixture package", () => {
  const surface = measurePublicSurface(fixture);

  it("splits each subpath's names into values and types; an interface with a same-name token is one value", () => {
    expect(surface.subpaths).toEqual([
      { subpath: ".", values: ["Store", "storageKey"], types: ["StoredRecord"] },
      { subpath: "./extra", values: ["storageKey"], types: [] },
    ]);
    expect(surface.total).toBe(4);
  });

  it("lists the names exported from more than one subpath", () => {
    expect(surface.duplicates).toEqual([{ name: "storageKey", subpaths: [".", "./extra"] }]);
  });

  it("reports a name exported twice and a total over the limit as problems, and none when both hold", () => {
    expect(surfaceProblems(surface, 3)).toEqual([
      "storageKey is exported from 2 subpaths (., ./extra): give it one home",
      "4 names exported, more than 3",
    ]);
    expect(surfaceProblems({ ...surface, duplicates: [] }, 4)).toEqual([]);
  });

  it("prints one line per subpath, the totals and the names exported twice", () => {
    expect(formatSurfaceReport(surface)).toEqual([
      ".           3 names: 2 values, 1 types",
      "./extra     1 names: 1 values, 0 types",
      "total 4 names (3 values, 1 types), limit 332",
      "names exported from more than one subpath: 1",
      "  storageKey: ., ./extra",
    ]);
  });
});
