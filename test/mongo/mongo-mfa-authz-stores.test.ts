import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import {
  EscalationStore,
  FactorContextRepository,
  MfaLockouts,
  ManagedResourceRepository,
  PolicyRepository,
  PolicyRevisionRepository,
  SignInHistoryStore,
  UserRepository,
  ZeroTrustActionStore,
} from "@keyward/core/ports";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  startDemo,
} from "../support/demo-server.js";
import { TEST_KEK } from "./mongo-test-support.js";

// Two demo instances over one database (the wire double): the MFA and authorization stores are
// MongoDB's, so a flow started on A completes on B and both decide on the same policies.
let double: WireDouble;
let client: MongoClient;
let a: RunningDemo;
let b: RunningDemo;
const dbName = "platform_mfa_authz_test";

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri).connect();
  a = await startDemo({}, TEST_KEK, { plugins: [mongoPlugin({ client, dbName })] });
  // B's start creates the same indexes again: idempotent.
  b = await startDemo({}, TEST_KEK, { plugins: [mongoPlugin({ client, dbName })] });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await client?.close();
  await double?.close();
});

describe("mongoPlugin: the MFA and authorization stores", () => {
  it("replaces the six ports and creates their indexes once, whichever instance starts first", async () => {
    const nameOf = (store: object) => store.constructor.name;
    const p = b.platform;
    expect([
      nameOf(p.resolve(MfaLockouts)),
      nameOf(p.resolve(FactorContextRepository)),
      nameOf(p.resolve(EscalationStore)),
      nameOf(p.resolve(SignInHistoryStore)),
      nameOf(p.resolve(PolicyRepository)),
      nameOf(p.resolve(ZeroTrustActionStore)),
      nameOf(p.resolve(ManagedResourceRepository)),
    ]).toEqual([
      "MongoMfaLockouts",
      "MongoFactorContextRepository",
      "MongoEscalationStore",
      "MongoSignInHistoryStore",
      "MongoPolicyRepository",
      "MongoZeroTrustActionStore",
      "MongoManagedResourceRepository",
    ]);
    const db = client.db(dbName);
    const indexNames = async (collection: string) =>
      (await db.collection(collection).listIndexes().toArray()).map((i) => i.name);
    expect(await indexNames("mfa_lockouts")).toContain("expiresAt_ttl");
    expect(await indexNames("mfa_factor_contexts")).toContain("expiresAt_ttl");
    expect(await indexNames("mfa_escalations")).toEqual(["_id_", "keepUntil_ttl", "status_createdAt"]);
    expect(await indexNames("zero_trust_actions")).toContain("at_desc");
    expect(await indexNames("policies")).toContain("priority_createdSeq");
    expect(await indexNames("managed_resources")).toEqual(["_id_", "resource_key", "status"]);
    expect(nameOf(p.resolve(PolicyRevisionRepository))).toBe("MongoPolicyRevisionRepository");
    expect(await indexNames("policy_revisions")).toEqual(["_id_", "policyId_at"]);
  });

  it("seeds the demo policies once and shows both instances the same ones", async () => {
    const onA = await a.platform.resolve(PolicyRepository).findAll();
    expect(onA.length).toBeGreaterThan(0);
    expect(new Set(onA.map((p) => p.name)).size).toBe(onA.length);
    expect(await b.platform.resolve(PolicyRepository).findAll()).toEqual(onA);
  });

  it("completes on B an API MFA flow started on A", async () => {
    const login = await fetch(`${a.base}/api/login`, json("POST", { username: "admin", password: "admin" }));
    const mfa = (await login.json()) as ApiMfaRequired;
    expect(login.status, JSON.stringify(mfa)).toBe(200);
    expect(mfa).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    const { result: resent, code } = await b.codeAfter("admin", () =>
      fetch(`${b.base}${mfa.endpoints.generateCode}`, json("POST", {}, bindingHeaders(mfa))),
    );
    expect(resent.status, await resent.clone().text()).toBe(200);
    const verified = await fetch(
      `${b.base}${mfa.endpoints.verifyOtt}`,
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    expect(verified.status, await verified.clone().text()).toBe(200);
    expect(await verified.json()).toMatchObject({ success: true, accessToken: expect.any(String) });
    // Single use: the same code on A finds the flow ended.
    const again = await fetch(
      `${a.base}${mfa.endpoints.verifyOtt}`,
      json("POST", { token: code }, bindingHeaders(mfa)),
    );
    expect(again.status).not.toBe(200);
    // B recorded the completed sign-in; A reads it.
    const admin = await a.platform.resolve(UserRepository).findByUsername("admin");
    const history = await a.platform.resolve(SignInHistoryStore).historyOf(admin?.id ?? "none");
    expect(history.signInCount).toBeGreaterThanOrEqual(1);
  });
});
