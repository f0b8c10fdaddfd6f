import { describe, expect, it } from "vitest";
import type { BundleSelection } from "../engine/bundle-selection.js";
import { EventSelections } from "./event-selections.js";

const selection = (version: string) => ({ version }) as unknown as BundleSelection;

describe("EventSelections", () => {
  it("remembers between 5,000 and 10,000 of the latest events, forgetting the oldest generation whole", () => {
    const memory = new EventSelections();
    for (let i = 0; i < 10_000; i++) memory.remember(`e${i}`, selection(`v${i}`));
    expect(memory.get("e0")?.version).toBe("v0");
    expect(memory.get("e9999")?.version).toBe("v9999");
    memory.remember("e10000", selection("v10000"));
    expect(memory.get("e0")).toBeUndefined();
    expect(memory.get("e4999")).toBeUndefined();
    expect(memory.get("e5000")?.version).toBe("v5000");
    expect(memory.get("e10000")?.version).toBe("v10000");
  });
});
