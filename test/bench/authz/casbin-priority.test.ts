import { newEnforcer, newModelFromString } from "casbin";
import { describe, expect, it } from "vitest";

const MODEL = `
[request_definition]
r = sub, obj, act
[policy_definition]
p = priority, sub, obj, act, eft
[policy_effect]
e = priority(p.eft) || deny
[matchers]
m = r.sub == p.sub && keyMatch2(r.obj, p.obj) && r.act == p.act
`;

/**
 * Why the platform keeps its own numeric priority order: node-casbin's priority model, with policies
 * added one by one, does not honour numeric priorities (issue #8). The platform's side of this is
 * "priority under incremental adds" in packages/core/src/authz/pdp/dynamic-authorization-manager.test.ts.
 */
describe("node-casbin 5.51 priority model (the peer), policies added one by one", () => {
  it("sorts priorities as strings: priority 10 ends up before priority 2 and decides", async () => {
    const e = await newEnforcer(newModelFromString(MODEL));
    await e.addPolicy("2", "alice", "/x", "GET", "allow");
    await e.addPolicy("10", "alice", "/x", "GET", "deny");
    // Numerically priority 2 (allow) comes first; casbin orders "10" < "2" and denies.
    expect((await e.getPolicy()).map((p) => p[0])).toEqual(["10", "2"]);
    expect(e.enforceSync("alice", "/x", "GET")).toBe(false);
  });
});
