import { mongoPlugin } from "@keyward/adapters-mongo";
import { startWireDouble, type WireDouble } from "@keyward/adapters-mongo/testing";
import { afterAll } from "vitest";
import { describeLastAdministrator } from "../identity/admin/last-administrator-scenarios.js";
import { NO_MFA_FOR_ADMINS, startDemo } from "../support/demo-server.js";
import { TEST_KEK } from "./mongo-test-support.js";

// The same scenarios with every store on MongoDB (the wire double in CI): the lease that decides a
// race between two administrators is one document, compare-and-set, no transaction.
let double: WireDouble | undefined;
afterAll(() => double?.close());

describeLastAdministrator("MongoDB", async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  return startDemo(
    {},
    { ...NO_MFA_FOR_ADMINS, ...TEST_KEK },
    { plugins: [mongoPlugin({ uri: double.uri, dbName: "last_admin" })] },
  );
});
