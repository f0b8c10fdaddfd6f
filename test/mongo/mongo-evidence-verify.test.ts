import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { PLATFORM_COMMANDS, runCli } from "@keyward/cli";
import { createPlatform, type Platform } from "@keyward/core";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryCliIo } from "../../packages/cli/src/command-line/memory-cli-io.js";
import { sealedEvidencePlugin } from "../../packages/core/src/decisions/evidence/sealed-evidence-plugin.js";
import { SealedEvidenceToken } from "../../packages/core/src/decisions/evidence/sealed-evidence-service.js";
import { evidencePackageOf } from "../../packages/core/src/decisions/evidence/sealed-evidence.fixture.js";

// Issue 32: `platform evidence verify --local` reads the chains from the store with the
// key-encryption key, opens every kept payload, and names a changed one.

const KEK = "evidence-verify-test-key-encryption-key-0123456789";
let double: WireDouble;
let platform: Platform;
let client: MongoClient;
let uri = "";

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  uri = double.uri.replace(/\/\?/, "/evidence_verify?");
  platform = createPlatform({
    env: {},
    properties: { "platform.keys.encryption-key": KEK, "platform.instance.id": "node-1" },
    plugins: [sealedEvidencePlugin, mongoPlugin({ uri })],
  });
  await platform.start();
  const sealed = platform.resolve(SealedEvidenceToken);
  for (const id of ["d1", "d2", "d3"])
    await sealed.record(
      evidencePackageOf(id, {
        at: 1_000,
        prompts: [{ layer: "L1", system: "system", user: `user of ${id}` }],
      }),
    );
  client = await new MongoClient(double.uri).connect();
});
afterAll(async () => {
  await client?.close();
  await platform?.stop();
  await double?.close();
});

async function verify(kek: string) {
  const io = memoryCliIo([], { PLATFORM_KEYS_ENCRYPTION_KEY: kek });
  const code = await runCli(["evidence", "verify", "--local", "--mongo-uri", uri], PLATFORM_COMMANDS, io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

describe("platform evidence verify --local on MongoDB", () => {
  it("proves the chain intact, then names a payload changed in the store", async () => {
    const intact = await verify(KEK);
    expect(intact.code, intact.err).toBe(0);
    expect(intact.out).toBe("node-1: 3 entries, no signed checkpoint yet: intact");
    const chain = client.db("evidence_verify").collection("sealed_evidence_chain");
    const d1 = await chain.findOne({ packageId: "d1" });
    await chain.updateOne({ packageId: "d2" }, { $set: { "payload.ciphertext": d1!.payload.ciphertext } });
    const broken = await verify(KEK);
    expect(broken.code).toBe(1);
    expect(broken.out).toBe(
      "node-1: 3 entries, no signed checkpoint yet: PAYLOAD_EDITED at sequence 2 (package d2)",
    );
  });

  it("stops on a wrong key-encryption key, printing no material", async () => {
    const wrong = await verify("not-the-key-encryption-key-of-this-store-42");
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("CONFIGURATION_INVALID");
  });
});
