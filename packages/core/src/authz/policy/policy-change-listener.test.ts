import { describe, expect, it } from "vitest";
import { createPlatform } from "../../kernel/platform.js";
import { PolicyChangeListener, policyChangeListenersOf } from "./policy-change-listener.js";

const listener = (id: string): PolicyChangeListener => ({ id, onPoliciesChanged: () => {} });

describe("policyChangeListenersOf", () => {
  it("answers an empty list when no listener is registered (resolveAll would throw)", () => {
    const platform = createPlatform();
    expect(() => platform.container.resolveAll(PolicyChangeListener)).toThrow();
    expect(policyChangeListenersOf(platform.container)()).toEqual([]);
  });

  it("reads every registered member, including ones registered later", () => {
    const platform = createPlatform({
      register: (c) => c.register(PolicyChangeListener, { useValue: listener("pdp") }),
    });
    const read = policyChangeListenersOf(platform.container);
    expect(read().map((l) => l.id)).toEqual(["pdp"]);
    platform.container.register(PolicyChangeListener, { useValue: listener("method-cache") });
    expect(read().map((l) => l.id)).toEqual(["pdp", "method-cache"]);
  });
});
