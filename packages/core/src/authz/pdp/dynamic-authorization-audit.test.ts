import { describe, expect, it } from "vitest";
import { caller, pdpWith, request, urlPolicy } from "./pdp.fixture.js";

const alice = caller("alice", "ROLE_USER");

describe("DynamicAuthorizationManager: the audit admission option (no instanceof on the sink)", () => {
  it("records a denial when the admission check says yes", async () => {
    let asked = 0;
    const { manager, audit } = await pdpWith([urlPolicy("no", "DENY", 1, "/x", [])], {
      auditAdmits: () => {
        asked++;
        return true;
      },
    });
    expect((await manager.check(alice, request("GET", "/x"))).granted).toBe(false);
    expect(asked).toBe(1);
    expect(audit.events().map((e) => e.type)).toEqual(["authz.denied"]);
  });

  it("skips building the denial's event when the admission check says no (overload)", async () => {
    const { manager, audit } = await pdpWith([urlPolicy("no", "DENY", 1, "/x", [])], {
      auditAdmits: () => false,
    });
    expect((await manager.check(alice, request("GET", "/x"))).granted).toBe(false);
    expect(audit.events()).toEqual([]);
  });

  it("records every denial when no admission check is given", async () => {
    const { manager, audit } = await pdpWith([urlPolicy("no", "DENY", 1, "/x", [])]);
    await manager.check(alice, request("GET", "/x"));
    expect(audit.events()).toHaveLength(1);
  });
});
