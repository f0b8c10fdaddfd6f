import { describe, expect, it } from "vitest";
import { setCurrentAuthentication } from "../../identity/authentication/authentication.js";
import { ManualClock } from "../../kernel/clock.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Route } from "../../web/route-table.js";
import { sampleBucketOf } from "../evidence/evidence-capture.js";
import type { EvidencePackage } from "../evidence/evidence-package.js";
import { evidencePackageOf, sealedEvidenceFixture } from "../evidence/sealed-evidence.fixture.js";
import { EVIDENCE_CHAIN_PATH, EvidenceChainEndpoint } from "./evidence-chain-endpoint.js";
import { SecurityDecisionsEndpoints } from "./security-decisions-endpoints.js";

function pkg(id: string, correlationId: string): EvidencePackage {
  return evidencePackageOf(id, { correlationId });
}

async function setup() {
  const clock = new ManualClock(5_000);
  const f = sealedEvidenceFixture({ clock, capture: { fullCaptureAfterChange: 1, samplePercent: 1 } });
  const outOfSample = Array.from({ length: 400 }, (_, i) => `c${i}`).find((c) => sampleBucketOf(c) >= 1)!;
  await f.sealed.record(pkg("sealed-1", "c-a"));
  await f.sealed.record(pkg("unsealed-1", outOfSample));
  const decisions = new SecurityDecisionsEndpoints({
    evidence: f.store,
    sealed: f.sealed,
    audit: f.audit,
  }).routes();
  const chain = new EvidenceChainEndpoint({ store: f.store, signer: f.signer, audit: f.audit }).route();
  const call = async (
    route: Route,
    url: string,
    authorities: string[] | null,
    params: Record<string, string> = {},
  ) => {
    const exchange = new HttpExchange({ method: "GET", url, headers: {}, remoteAddress: "203.0.113.9" });
    if (authorities)
      setCurrentAuthentication(exchange, {
        userId: "u-admin",
        username: "root",
        authorities,
        method: "bearer",
        authenticatedAt: 0,
        factors: [],
      });
    await route.handler(exchange, params);
    return exchange.response.body as Record<string, unknown>;
  };
  return { f, detail: decisions[1]!, chain, call };
}

describe("the decision detail", () => {
  it("shows a sealed decision's seal and prompts (an audited read), and an unsealed one as sealed: false", async () => {
    const { f, detail, call } = await setup();
    const sealed = await call(detail, "/x", ["ROLE_ADMIN"], { id: "sealed-1" });
    expect(sealed).toMatchObject({
      id: "sealed-1",
      sealed: true,
      seal: {
        instanceId: "node-1",
        sequence: 1,
        intact: true,
        reason: null,
        erased: false,
        checkpoint: null,
      },
      prompts: [{ layer: "L1", user: "user text of sealed-1" }],
    });
    expect((sealed.seal as { packageHash: string }).packageHash).toBe(
      (await f.store.packageEntry("sealed-1"))!.entryHash,
    );
    expect(await call(detail, "/x", ["ROLE_ADMIN"], { id: "unsealed-1" })).toMatchObject({
      id: "unsealed-1",
      sealed: false,
      seal: null,
      prompts: [],
      input: null,
    });
    expect(
      f.audit
        .events()
        .filter((e) => e.type === "evidence.package.read")
        .map((e) => e.principal),
    ).toEqual(["root"]);
  });
});

describe("GET /platform/admin/api/prompt-inspection/chain", () => {
  it("answers the chains' heads, then one chain's entries without payloads, with the checkpoint keys", async () => {
    const { f, chain, call } = await setup();
    await f.chain.checkpoint("node-1");
    expect(chain.path).toBe(EVIDENCE_CHAIN_PATH);
    const heads = await call(chain, EVIDENCE_CHAIN_PATH, ["ROLE_ADMIN"]);
    expect(heads).toMatchObject({
      chains: [{ instanceId: "node-1", head: { sequence: 1 } }],
      keys: [{ kid: expect.any(String) }],
    });
    const page = await call(chain, `${EVIDENCE_CHAIN_PATH}?instance=node-1&after=0&limit=1`, ["ROLE_ADMIN"]);
    expect(page).toMatchObject({
      instanceId: "node-1",
      entries: [{ sequence: 1, kind: "PACKAGE" }],
      next: 1,
    });
    expect((page.entries as Record<string, unknown>[])[0]).not.toHaveProperty("payload");
    expect(page.checkpoints).toHaveLength(1);
  });

  it("refuses anonymous (401), non-administrators (403, audited) and hostile queries (400)", async () => {
    const { f, chain, call } = await setup();
    expect(await codeOf(call(chain, EVIDENCE_CHAIN_PATH, null))).toBe("AUTHENTICATION_REQUIRED");
    expect(await codeOf(call(chain, EVIDENCE_CHAIN_PATH, ["ROLE_USER"]))).toBe("ACCESS_DENIED");
    expect(f.audit.events().filter((e) => e.type === "decision.admin.denied")).toHaveLength(1);
    for (const query of [
      "?instance=",
      "?instance=a%20b",
      `?instance=${"x".repeat(129)}`,
      "?instance=node-1&after=-1",
      "?instance=node-1&after=1e3",
      "?instance=node-1&limit=0",
      "?instance=node-1&limit=1001",
      "?instance=node-1&instance=node-2",
      "?after=3",
      "?__proto__=1",
      "?instance=%00",
    ])
      expect(await codeOf(call(chain, `${EVIDENCE_CHAIN_PATH}${query}`, ["ROLE_ADMIN"])), query).toBe(
        "VALIDATION_FAILED",
      );
  });
});
