import { mongoPlugin } from "@keyward/adapters-mongo";
import {
  type CommandCounter,
  countCommands,
  startWireDouble,
  type WireDouble,
} from "@keyward/adapters-mongo/testing";
import { AuditLog, PasswordHasher, UserRepository } from "@keyward/core/ports";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { outbox, waitForLine } from "../identity/mfa/mfa-test-support.js";
import {
  type ApiMfaRequired,
  bindingHeaders,
  json,
  type RunningDemo,
  startDemo,
} from "../support/demo-server.js";
import { TEST_KEK } from "./mongo-test-support.js";

// Round trips per request: the commands the driver sends while the demo (every store on MongoDB)
// answers. docs/mongodb.md "Commands per request" lists the same rows; a change in either shows here.
//
// Two things run beside requests on the same client and are kept out of the counts: the audit trail's
// writer (asynchronous inserts; flushed before each row) and the two pollers, of policies and of the
// shared change counters (both turned off here, 0: a 2 s tick inside a slow request was counted). "Warm" rows are measured on the second request of the subject: the zero-trust
// hot path caches each subject's action for `security.zerotrust.store.update-interval-seconds`, and
// the first request of a subject in each interval adds one `find zero_trust_actions` per subject.

const MFA_ROLE = "ROLE_AUDITOR";
let double: WireDouble;
let client: MongoClient;
let demo: RunningDemo;
let counter: CommandCounter;

beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri, { monitorCommands: true }).connect();
  demo = await startDemo(
    {},
    {
      ...TEST_KEK,
      "platform.auth.mfa.requiredAuthorities": MFA_ROLE,
      "platform.policy.refresh-interval": "0",
      "platform.changes.poll-interval": "0",
    },
    { plugins: [mongoPlugin({ client, dbName: "round_trips" })] },
  );
  const hasher = demo.platform.resolve(PasswordHasher);
  const users = demo.platform.resolve(UserRepository);
  await users.create({
    username: "frank",
    passwordHash: await hasher.hash("frank-pass"),
    authorities: ["ROLE_USER"],
  });
  await users.create({
    username: "carol",
    passwordHash: await hasher.hash("carol-pass"),
    authorities: ["ROLE_USER", MFA_ROLE],
  });
  counter = countCommands(client);
});
afterAll(async () => {
  counter?.stop();
  await demo?.close();
  await client?.close();
  await double?.close();
});

/** Writes what the audit trail queued, so its inserts are not counted against the next request. */
const flushAudit = () => demo.platform.resolve(AuditLog).query({ limit: 1 });

/** The commands `send` causes (audit flushed before; the answer read whole), and its status. */
async function measure(
  send: () => Promise<Response>,
): Promise<{ status: number; commands: string[]; body: unknown }> {
  await flushAudit();
  let status = 0;
  let body: unknown;
  const commands = await counter.trace(async () => {
    const res = await send();
    status = res.status;
    const text = await res.text();
    body = text.startsWith("{") ? JSON.parse(text) : text;
  });
  // The audit writer's inserts run off the request path (asynchronously, batched): not the request's cost.
  return { status, commands: commands.filter((c) => c !== "insert audit_events"), body };
}

const restLogin = (username: string, password: string) =>
  fetch(`${demo.base}/api/login`, json("POST", { username, password }));

describe("MongoDB commands per request (every store on MongoDB)", () => {
  it("session GET /api/me: 1 command once warm (findAndModify sessions: read and touch in one step)", async () => {
    const browser = new Browser(demo.base);
    const csrf = await browser.csrfFrom("/login");
    expect(
      (await browser.postForm("/login", { username: "frank", password: "frank-pass", _csrf: csrf })).status,
    ).toBe(302);
    const cold = await measure(() => browser.fetch("/api/me"));
    expect(cold.status).toBe(200);
    // Cold: the session, the account's standing (its security stamp, then cached), zero trust.
    expect(cold.commands.length, cold.commands.join(", ")).toBeLessThanOrEqual(4);
    const warm = await measure(() => browser.fetch("/api/me"));
    expect(warm.status).toBe(200);
    expect(warm.commands).toEqual(["findAndModify sessions"]);
  });

  it("bearer GET /api/me: 1 command once warm (the revocation check)", async () => {
    const { accessToken } = (await (await restLogin("frank", "frank-pass")).json()) as {
      accessToken: string;
    };
    const me = () => fetch(`${demo.base}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    const cold = await measure(me);
    expect(cold.status).toBe(200);
    expect(cold.commands.length, cold.commands.join(", ")).toBeLessThanOrEqual(2);
    const warm = await measure(me);
    expect(warm.status).toBe(200);
    expect(warm.commands).toEqual(["find revoked_access_tokens"]);
  });

  it("REST login (POST /api/login), password only", async () => {
    const login = await measure(() => restLogin("frank", "frank-pass"));
    expect(login.status).toBe(200);
    expect(login.commands).toEqual([
      "find login_throttle_counters", // LoginThrottle.check
      "find users",
      "delete login_throttle_counters", // LoginThrottle.recordSuccess
      "find mfa_lockouts", // the MFA policy: is the account locked out of MFA
      "update sign_in_history", // adaptive MFA's memory of devices and networks
      "insert refresh_tokens", // the token pair's family
    ]);
  });

  it("token refresh (POST /api/token/refresh)", async () => {
    const { refreshToken } = (await (await restLogin("frank", "frank-pass")).json()) as {
      refreshToken: string;
    };
    const refresh = await measure(() =>
      fetch(`${demo.base}/api/token/refresh`, json("POST", { refreshToken })),
    );
    expect(refresh.status).toBe(200);
    expect(refresh.commands).toEqual([
      "find refresh_tokens", // the presented token's record (status, family)
      "findAndModify refresh_tokens", // rotate: active → rotated, one compare-and-set
      "insert refresh_tokens", // the successor
      "find refresh_tokens", // the family's live record for the new pair
      "find revoked_access_tokens", // the new access token is checked like any other
    ]);
  });

  it("REST MFA: the password step, then the emailed code", async () => {
    const before = outbox(demo.outboxFile).length;
    // Until the code is in the outbox: its delivery, after the answer, looks up the account's address.
    const primary = await measure(async () => {
      const answer = await restLogin("carol", "carol-pass");
      await waitForLine(demo.outboxFile, before + 1);
      return answer;
    });
    expect(primary.status).toBe(200);
    const mfa = primary.body as ApiMfaRequired;
    expect(mfa).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    expect(primary.commands).toEqual([
      "find login_throttle_counters",
      "find users",
      "delete login_throttle_counters",
      "find zero_trust_actions", // the sign-in checkpoint (first request of this user)
      "find mfa_lockouts",
      "find passkey_credentials", // which factors the user can use
      "find totp_enrolments", // … an authenticator app among them (the demo offers TOTP)
      "find mfa_recovery_codes", // … recovery codes left
      "update mfa_factor_contexts", // the flow is created
      "findAndModify mfa_factor_contexts", // → factor selected (compare-and-set on the version)
      "findAndModify mfa_factor_contexts", // → code challenge issued (its hash)
      "find users", // the delivery: the account's e-mail address (UserAccount.email), off the answer's path
    ]);
    const line = await waitForLine(demo.outboxFile, before + 1);
    const verify = await measure(() =>
      fetch(
        `${demo.base}${mfa.endpoints.verifyOtt}`,
        json("POST", { token: line.token }, bindingHeaders(mfa)),
      ),
    );
    expect(verify.status, JSON.stringify(verify.body)).toBe(200);
    expect(verify.commands).toEqual([
      "find mfa_factor_contexts", // the flow, by its id
      "findAndModify mfa_lockouts", // the attempt, reserved before the code is judged (refused while locked)
      "findAndModify mfa_factor_contexts", // the code is spent: compare-and-set on the version
      "update mfa_lockouts", // failures cleared
      "findAndModify mfa_factor_contexts", // → completed
      "update sign_in_history",
      "insert refresh_tokens",
    ]);
  });
});
