import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { caller } from "../pdp/pdp.fixture.js";
import { InMemoryPolicyRepository } from "../policy/in-memory-policy-repository.js";
import { DefaultPolicyRetrievalPoint } from "../policy/policy-retrieval-point.js";
import { PolicyMethodAuthorizationManager } from "./policy-method-authorization-manager.js";
import { MethodSecurity } from "./method-security.js";
import { AuthorityPermissionEvaluator } from "./permission-evaluator.js";
import { Protectable } from "./protectable.js";
import { SecurityContextHolder } from "./security-context-holder.js";

class Ledger {
  #entries = ["opening"];
  get size(): number {
    return this.#entries.length;
  }
  add(entry: string): number {
    this.#entries.push(entry);
    return this.#entries.length;
  }
  @Protectable({ ownerField: "owner" })
  mine(): { owner: string; entries: readonly string[] } {
    return { owner: "alice", entries: [...this.#entries] };
  }
}

async function security(): Promise<{
  protect: <T extends object>(x: T) => T;
  holder: SecurityContextHolder;
}> {
  const clock = new ManualClock(0);
  const repository = new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() });
  const manager = new PolicyMethodAuthorizationManager({
    prp: new DefaultPolicyRetrievalPoint({ repository }),
    compiler: new ExpressionCompiler(),
    converter: new PolicyExpressionConverter(),
    permissions: new AuthorityPermissionEvaluator(),
    audit: new InMemoryAuditSink(100, clock),
    clock,
    timeZone: "UTC",
  });
  await manager.reload();
  const holder = new SecurityContextHolder();
  const methods = new MethodSecurity(manager, holder);
  return { protect: (x) => methods.protect(x), holder };
}

describe("MethodSecurity proxies", () => {
  it("keep getters, #private fields and unprotected methods working on the real instance", async () => {
    const { protect, holder } = await security();
    const ledger = protect(new Ledger());
    expect(ledger.size).toBe(1);
    expect(ledger.add("tea")).toBe(2);
    expect(ledger.add).toBe(ledger.add); // one bound function per member, not one per read
    expect(holder.run(caller("alice"), () => ledger.mine()).entries).toEqual(["opening", "tea"]);
    expect(() => holder.run(caller("bob"), () => ledger.mine())).toThrow("Access denied");
  });
});
