import { mongoPlugin } from "@platform/adapters-mongo";
import {
  type CommandCounter,
  countCommands,
  startWireDouble,
  type WireDouble,
} from "@platform/adapters-mongo/testing";
import { PasswordHasher, UserRepository } from "@platform/core/ports";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEK } from "./mongo-test-support.js";
import { Browser } from "../identity/identity-test-server.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// Round trips per request: the commands the driver sends while the demo (on mongoPlugin) answers.
let double: WireDouble;
let client: MongoClient;
let demo: RunningDemo;
let counter: CommandCounter;
let browser: Browser;

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri, { monitorCommands: true }).connect();
  demo = await startDemo(
    {},
    { ...NO_MFA_FOR_ADMINS, ...TEST_KEK },
    {
      plugins: [mongoPlugin({ client, dbName: "round_trips" })],
    },
  );
  await demo.platform.resolve(UserRepository).create({
    username: "frank",
    passwordHash: await demo.platform.resolve(PasswordHasher).hash("frank-pass"),
    authorities: ["ROLE_USER"],
  });
  counter = countCommands(client);
  browser = new Browser(demo.base);
  const csrf = await browser.csrfFrom("/login");
  const res = await browser.postForm("/login", { username: "frank", password: "frank-pass", _csrf: csrf });
  expect(res.status).toBe(302);
});
afterAll(async () => {
  counter?.stop();
  await demo?.close();
  await client?.close();
  await double?.close();
});

/**
 * One row per request whose cost the issue bounds. Rows to add as their stores land on MongoDB (each
 * still served from memory today, so a count here would prove nothing): bearer `GET /api/me` (≤ 1, the
 * revocation check), REST login, each MFA step (docs/mongodb.md lists their counts).
 */
const ROWS: { request: string; most: number; send: () => Promise<Response> }[] = [
  { request: "session GET /api/me", most: 1, send: () => browser.fetch("/api/me") },
];

describe("MongoDB commands per request", () => {
  it.each(ROWS)("$request sends at most $most command(s)", async ({ send, most }) => {
    let status = 0;
    const commands = await counter.during(async () => {
      const res = await send();
      status = res.status;
      await res.arrayBuffer();
    });
    expect(status).toBe(200);
    expect(commands.length, `commands: ${commands.join(", ")}`).toBeLessThanOrEqual(most);
    expect(commands.length).toBeGreaterThan(0);
  });
});
