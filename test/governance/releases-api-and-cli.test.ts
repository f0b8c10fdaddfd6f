import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog, ReleaseRegistry } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformInProcess } from "../cli/platform-command-runs.js";
import { Browser } from "../identity/identity-test-server.js";
import { bearerHeaders, type RunningDemo } from "../support/demo-server.js";
import { PROMPT_KEY, putRelease, startReleaseDemo, V18, V19, V20 } from "./release-demo.js";

// The release API over HTTP, then `platform releases` (in this process) against the same demo: one
// demo start for both.
const API = "/platform/admin/api/prompt-quality";
const HASH = "0".repeat(64);

let demo: RunningDemo;
let admin: Record<string, string>;
let admin2: Record<string, string>;
let user: Record<string, string>;

beforeAll(async () => {
  demo = await startReleaseDemo();
  [admin, admin2, user] = await Promise.all([
    bearerHeaders(demo.base, "admin", "admin"),
    bearerHeaders(demo.base, "admin2", "admin2"),
    bearerHeaders(demo.base, "user", "password"),
  ]);
});
afterAll(() => demo.close());

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${demo.base}${API}${path}`, {
    method,
    headers: { accept: "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

const transition = (over: Record<string, unknown> = {}) => ({
  promptKey: PROMPT_KEY,
  promptVersion: V20,
  targetReleaseStatus: "SHADOW",
  rationale: "try the dictionary blocks",
  ...over,
});
const rollback = (over: Record<string, unknown> = {}) => ({
  promptKey: PROMPT_KEY,
  fromVersion: V20,
  toVersion: V19,
  reason: "v20 blocks too much",
  ...over,
});
const evidence = (over: Record<string, unknown> = {}) => ({
  kind: "CHANGE_RECORD",
  promptKey: PROMPT_KEY,
  promptVersion: V20,
  bundleHash: HASH,
  content: {},
  ...over,
});

/** Every endpoint with a body its schema accepts (the approve key is unknown: 404 for an admin). */
const ENDPOINTS: [string, string, unknown][] = [
  ["GET", "/releases", undefined],
  ["GET", "/releases/history", undefined],
  ["POST", "/releases/transition", transition()],
  ["POST", "/releases/transition?dryRun=true", transition()],
  ["POST", "/releases/rollback", rollback()],
  ["POST", "/releases/rollback/RBX-none/approve", {}],
  ["GET", `/evidence?promptKey=${PROMPT_KEY}`, undefined],
  ["POST", "/evidence", evidence()],
  ["GET", "/convergence", undefined],
];

describe("the release API admits administrators only", () => {
  it("answers an anonymous caller 401 (or the CSRF 403) and a non-administrator 403, audited, with no-store", async () => {
    for (const [method, path, body] of ENDPOINTS) {
      const anonymous = await call(method, path, { "content-type": "application/json" }, body);
      // An anonymous POST has no session: the session chain's CSRF check refuses it first.
      const expected =
        method === "GET"
          ? ["401 AUTHENTICATION_REQUIRED"]
          : ["401 AUTHENTICATION_REQUIRED", "403 CSRF_TOKEN_INVALID"];
      const { code } = (await anonymous.json()) as { code: string };
      expect(expected, `${method} ${path}`).toContain(`${anonymous.status} ${code}`);
      const refused = await call(method, path, user, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect(await refused.json()).toMatchObject({ code: "ACCESS_DENIED" });
    }
    const denied = await demo.platform.resolve(AuditLog).query({ type: "release.admin.denied" });
    expect(denied).toHaveLength(ENDPOINTS.length);
    expect(denied.every((e) => e.principal === "user")).toBe(true);
  });

  it("asks a session caller for the CSRF token; the token lets the call through", async () => {
    const b = new Browser(demo.base);
    const login = await b.postForm("/login", {
      username: "admin",
      password: "admin",
      _csrf: await b.csrfFrom("/login"),
    });
    expect(login.status).toBe(302);
    const csrf = await b.csrfFrom("/");
    const without = await b.postJson(`${API}/releases/transition?dryRun=true`, transition());
    expect(without.status).toBe(403);
    expect(await without.json()).toMatchObject({ code: "CSRF_TOKEN_INVALID" });
    const withToken = await b.postJson(`${API}/releases/transition?dryRun=true`, transition(), {
      "x-csrf-token": csrf,
    });
    expect([200, 422]).toContain(withToken.status);
    expect(await withToken.json()).toMatchObject({ dryRun: true, promptVersion: V20 });
  });

  it("answers other methods 405 with Allow", async () => {
    const res = await call("DELETE", "/releases/transition", admin);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
  });
});

describe("the release API refuses malformed, missing, oversized and hostile input", () => {
  const bodies: [string, string, unknown, number, string][] = [
    ["/releases/transition", "not JSON", "{", 400, "MALFORMED_JSON"],
    ["/releases/transition", "a JSON array", "[]", 400, "MALFORMED_BODY"],
    [
      "/releases/transition",
      "no promptVersion",
      transition({ promptVersion: undefined }),
      400,
      "VALIDATION_FAILED",
    ],
    ["/releases/transition", "no rationale", transition({ rationale: undefined }), 400, "VALIDATION_FAILED"],
    [
      "/releases/transition",
      "a blank rationale",
      transition({ rationale: "  \n " }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "/releases/transition",
      "an unknown state",
      transition({ targetReleaseStatus: "LIVE" }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "/releases/transition",
      "a lower-case state",
      transition({ targetReleaseStatus: "production" }),
      400,
      "VALIDATION_FAILED",
    ],
    ["/releases/transition?dryRun=", "a blank dryRun", transition(), 400, "VALIDATION_FAILED"],
    ["/releases/transition?dryRun=1", "dryRun=1", transition(), 400, "VALIDATION_FAILED"],
    ["/releases/transition?dryRun=TRUE", "an upper-case dryRun", transition(), 400, "VALIDATION_FAILED"],
    ["/releases/transition", "an actor field", transition({ actor: "mallory" }), 400, "VALIDATION_FAILED"],
    [
      "/releases/transition",
      "a __proto__ field",
      '{"__proto__":{"x":1},"promptKey":"k"}',
      400,
      "VALIDATION_FAILED",
    ],
    [
      "/releases/transition",
      "a path in the version",
      transition({ promptVersion: "../v19" }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "/releases/transition",
      "a bidi override",
      transition({ rationale: "ok\u202Edesrever" }),
      400,
      "VALIDATION_FAILED",
    ],
    ["/releases/transition", "a NUL", transition({ rationale: "a\u0000b" }), 400, "VALIDATION_FAILED"],
    [
      "/releases/transition",
      "a long rationale",
      transition({ rationale: "x".repeat(2001) }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "/releases/transition",
      "a long version",
      transition({ promptVersion: "v".repeat(129) }),
      400,
      "VALIDATION_FAILED",
    ],
    ["/releases/transition", "a number as scope", transition({ registryScope: 7 }), 400, "VALIDATION_FAILED"],
    ["/releases/rollback", "emergency as text", rollback({ emergency: "true" }), 400, "VALIDATION_FAILED"],
    ["/releases/rollback", "no toVersion", rollback({ toVersion: undefined }), 400, "VALIDATION_FAILED"],
    ["/releases/rollback", "an operator field", rollback({ operator: "mallory" }), 400, "VALIDATION_FAILED"],
    [
      "/releases/rollback/RBX-none/approve",
      "an unknown action",
      { action: "APPROVE" },
      400,
      "VALIDATION_FAILED",
    ],
    [
      "/releases/rollback/RBX-none/approve",
      "an approver field",
      { approvedBy: "x" },
      400,
      "VALIDATION_FAILED",
    ],
    ["/evidence", "an unknown kind", evidence({ kind: "PASSED" }), 400, "VALIDATION_FAILED"],
    [
      "/evidence",
      "a hash that is not hex",
      evidence({ bundleHash: "Z".repeat(64) }),
      400,
      "VALIDATION_FAILED",
    ],
    ["/evidence", "content as a list", evidence({ content: [] }), 400, "VALIDATION_FAILED"],
    ["/evidence", "a recordedBy field", evidence({ recordedBy: "mallory" }), 400, "VALIDATION_FAILED"],
  ];
  it.each(bodies)("POST %s with %s: %i %s", async (path, _what, body, status, code) => {
    const res = await call("POST", path, { ...admin, "content-type": "application/json" }, body);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ code });
  });

  it("refuses a form body 415, an oversized body 413, and never answers 500", async () => {
    const form = await call(
      "POST",
      "/releases/transition",
      { ...admin, "content-type": "application/x-www-form-urlencoded" },
      "promptKey=k",
    );
    expect(form.status).toBe(415);
    const huge = await call("POST", "/releases/rollback", admin, rollback({ reason: "x".repeat(1_100_000) }));
    expect(huge.status).toBe(413);
  });

  it.each([
    ["/releases?registryScope=a&registryScope=b", "registryScope"],
    ["/releases?scope=PLATFORM_GLOBAL", "scope"],
    ["/releases?registryScope=%E2%80%AEx", "registryScope"],
    ["/releases/history?limit=0", "limit"],
    ["/releases/history?limit=1001", "limit"],
    ["/releases/history?limit=1e2", "limit"],
    ["/evidence", "promptKey"],
    [`/evidence?promptKey=${"k".repeat(129)}`, "promptKey"],
    ["/convergence?verdict=STALE", "verdict"],
    ["/convergence?registryScope=a&registryScope=b", "registryScope"],
    ["/convergence?registryScope=%3Cscript%3E", "registryScope"],
  ])("refuses GET %s naming %s", async (path, field) => {
    const res = await call("GET", path, admin);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe("VALIDATION_FAILED");
    expect(body.issues[0]!.path).toBe(field);
  });

  it("refuses a malformed execution key 400 and an unknown one 404", async () => {
    for (const key of ["%00", "RBX-", `RBX-${"a".repeat(65)}`, "rbx-1", "RBX-a%2F..%2Fb"]) {
      const res = await call("POST", `/releases/rollback/${key}/approve`, admin, {});
      expect(res.status, key).toBe(400);
    }
    const unknown = await call("POST", "/releases/rollback/RBX-unknown/approve", admin2);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "ROLLBACK_EXECUTION_NOT_FOUND" });
  });
});

describe("the canary share of a transition (hostile values refused, naming the field)", () => {
  const canary = (over: Record<string, unknown>) => transition({ targetReleaseStatus: "CANARY", ...over });
  it.each([
    ["a share on another target", transition({ canaryPercent: 10 }), "canaryPercent"],
    ["tenants on another target", transition({ canaryTenants: ["acme"] }), "canaryTenants"],
    ["101", canary({ canaryPercent: 101 }), "canaryPercent"],
    ["-1", canary({ canaryPercent: -1 }), "canaryPercent"],
    ["a decimal", canary({ canaryPercent: 2.5 }), "canaryPercent"],
    ["the string NaN", canary({ canaryPercent: "NaN" }), "canaryPercent"],
    ["a numeric string", canary({ canaryPercent: "10" }), "canaryPercent"],
    [
      "10,000 tenants",
      canary({ canaryTenants: Array.from({ length: 10_000 }, (_, i) => `t${i}`) }),
      "canaryTenants",
    ],
    ["a tenant list as text", canary({ canaryTenants: "acme,globex" }), "canaryTenants"],
    [
      "a 300-character family",
      canary({ canaryResourceFamilies: ["/a".repeat(150)] }),
      "canaryResourceFamilies",
    ],
  ])("refuses %s (400, the schema)", async (_what, body, field) => {
    const res = await call(
      "POST",
      "/releases/transition?dryRun=true",
      { ...admin, "content-type": "application/json" },
      body,
    );
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { code: string; issues: { path: string }[] };
    expect(answer.code).toBe("VALIDATION_FAILED");
    // A list's entry is named with its index (`canaryResourceFamilies.0`).
    expect(answer.issues[0]!.path.split(".")[0]).toBe(field);
  });

  it.each([
    ["a ../ family", { canaryResourceFamilies: ["/api/../admin"] }, "canaryResourceFamilies"],
    ["a non-canonical family", { canaryResourceFamilies: ["/api/orders/"] }, "canaryResourceFamilies"],
    ["a control character", { canaryTenants: ["ac\u0007me"] }, "canaryTenants"],
    ["a bidi override", { canaryTenants: ["\u202Eemca"] }, "canaryTenants"],
    ["a blank tenant", { canaryTenants: [""] }, "canaryTenants"],
  ])("refuses %s (400, the service)", async (_what, over, field) => {
    const res = await call(
      "POST",
      "/releases/transition?dryRun=true",
      { ...admin, "content-type": "application/json" },
      canary(over),
    );
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { code: string; message: string };
    expect(answer.code).toBe("VALIDATION_FAILED");
    expect(answer.message).toContain(field);
  });

  it("takes a share on a move to CANARY and answers it in the receipt", async () => {
    const share = {
      canaryPercent: 10,
      canaryTenants: ["acme"],
      canaryResourceFamilies: ["/api/orders", "billing"],
    };
    const res = await call(
      "POST",
      "/releases/transition?dryRun=true",
      { ...admin, "content-type": "application/json" },
      canary(share),
    );
    // v20 is AVAILABLE here: the dry run is blocked, and says what share the move asked for.
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ targetStatus: "CANARY", canary: share });
  });
});

describe("the release API through the registry", () => {
  const history = async () =>
    ((await (await call("GET", "/releases/history?limit=1000", admin)).json()) as { entries: unknown[] })
      .entries;

  it("lists every scope's releases with canonical states", async () => {
    const res = await call("GET", "/releases", admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { scopes } = (await res.json()) as {
      scopes: { registryScope: string; releases: { promptVersion: string; status: string }[] }[];
    };
    const global = scopes.find((s) => s.registryScope === "PLATFORM_GLOBAL")!;
    expect(global.releases.find((r) => r.promptVersion === V19)?.status).toBe("ACTIVE");
    expect(global.releases.find((r) => r.promptVersion === V20)?.status).toBe("AVAILABLE");
    const one = (await (await call("GET", "/releases?registryScope=PLATFORM_GLOBAL", admin)).json()) as {
      scopes: unknown[];
    };
    expect(one.scopes).toHaveLength(1);
  });

  it("reports the convergence of the demo's own instance, which beats at start", async () => {
    const res = await call("GET", "/convergence", admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const report = (await res.json()) as { instances: { verdict: string; scopes: unknown[] }[] };
    // The demo decides with the configuration selector: it does not follow the registry.
    expect(report.instances).toMatchObject([{ verdict: "NOT_FOLLOWING" }]);
  });

  it("a dry run lists the blockers and records nothing", async () => {
    const before = await history();
    const res = await call(
      "POST",
      "/releases/transition?dryRun=true",
      admin,
      transition({ targetReleaseStatus: "EVAL_ONLY" }),
    );
    expect(res.status).toBe(422);
    const receipt = (await res.json()) as Record<string, unknown>;
    expect(receipt).toMatchObject({
      code: "RELEASE_TRANSITION_BLOCKED",
      outcome: "BLOCKED",
      dryRun: true,
      fromStatus: "AVAILABLE",
      targetStatus: "SHADOW",
    });
    expect(receipt.historyId).toBeUndefined();
    expect(await history()).toEqual(before);
  });

  it("a blocked transition answers 422 with its blockers, older names in and canonical names out, recorded under the caller", async () => {
    const res = await call(
      "POST",
      "/releases/transition",
      admin,
      transition({ targetReleaseStatus: "PRODUCTION" }),
    );
    expect(res.status).toBe(422);
    const receipt = (await res.json()) as {
      code: string;
      targetStatus: string;
      blockers: { code: string }[];
    };
    expect(receipt.code).toBe("RELEASE_TRANSITION_BLOCKED");
    expect(receipt.targetStatus).toBe("ACTIVE");
    expect(receipt.blockers.map((b) => b.code)).toContain("ILLEGAL_STATE_TRANSITION");
    const [latest] = (await history()) as { kind: string; actor: string; toStatus: string }[];
    expect(latest).toMatchObject({ kind: "TRANSITION_BLOCKED", actor: "admin" });
    expect(JSON.stringify(await history())).not.toMatch(/PRODUCTION|EVAL_ONLY|DRAFT|ROLLED_BACK/);
  });

  it("refuses a rollback from v19 to v18 (not in this build) 422 with its conditions", async () => {
    const res = await call(
      "POST",
      "/releases/rollback",
      admin,
      rollback({ fromVersion: V19, toVersion: V18 }),
    );
    expect(res.status).toBe(422);
    const execution = (await res.json()) as {
      code: string;
      status: string;
      executionKey: string;
      conditions: { code: string; outcome: string }[];
    };
    expect(execution).toMatchObject({ code: "ROLLBACK_REFUSED", status: "REFUSED" });
    expect(execution.executionKey).toMatch(/^RBX-/);
    expect(execution.conditions).toContainEqual(
      expect.objectContaining({ code: "TARGET_NOT_IN_BUILD", outcome: "FAILED" }),
    );
  });

  it("records evidence under the caller (201); with a change record for v20's hash the move to SHADOW applies (200)", async () => {
    const { scopes } = (await (await call("GET", "/releases", admin)).json()) as {
      scopes: { releases: { promptVersion: string; artifactHash: string }[] }[];
    };
    const bundleHash = scopes[0]!.releases.find((r) => r.promptVersion === V20)!.artifactHash;
    const change = { summary: "Dictionary blocks replace sections.", reference: "SEC-1234", risk: "MEDIUM" };
    const posted = await call("POST", "/evidence", admin, evidence({ bundleHash, content: change }));
    expect(posted.status).toBe(201);
    expect(await posted.json()).toMatchObject({ kind: "CHANGE_RECORD", bundleHash, recordedBy: "admin" });
    const listed = await call("GET", `/evidence?promptKey=${PROMPT_KEY}&promptVersion=${V20}`, admin);
    expect(((await listed.json()) as { evidence: { recordedBy: string }[] }).evidence).toEqual([
      expect.objectContaining({ kind: "CHANGE_RECORD", recordedBy: "admin" }),
    ]);
    const applied = await call(
      "POST",
      "/releases/transition",
      admin,
      transition({ targetReleaseStatus: "EVAL_ONLY" }),
    );
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({
      outcome: "APPLIED",
      dryRun: false,
      fromStatus: "AVAILABLE",
      targetStatus: "SHADOW",
      blockers: [],
    });
  });

  it("an emergency stop answers 202; its operator cannot approve it (403), another administrator can", async () => {
    await putRelease(demo, V20, "CANARY");
    const stop = await call("POST", "/releases/rollback", admin, rollback({ emergency: true }));
    expect(stop.status).toBe(202);
    const { executionKey, status, operator } = (await stop.json()) as Record<string, string>;
    expect({ status, operator }).toEqual({ status: "AWAITING_APPROVAL", operator: "admin" });
    const listed = JSON.stringify(await (await call("GET", "/releases", admin)).json());
    expect(listed).toContain(executionKey);
    const own = await call("POST", `/releases/rollback/${executionKey}/approve`, admin, { action: "RATIFY" });
    expect(own.status).toBe(403);
    expect(await own.json()).toMatchObject({ code: "APPROVAL_BY_OPERATOR_FORBIDDEN" });
    // No body at all: RATIFY.
    const other = await call("POST", `/releases/rollback/${executionKey}/approve`, admin2);
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ executionKey, status: "RATIFIED", approvedBy: "admin2" });
    const again = await call("POST", `/releases/rollback/${executionKey}/approve`, admin2, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "ROLLBACK_EXECUTION_NOT_OPEN" });
  });
});

describe("platform releases", () => {
  // Two administrators with their own credentials files (an emergency stop needs a second one).
  const dir = mkdtempSync(join(tmpdir(), "platform-releases-"));
  const as = {
    admin: { PLATFORM_CREDENTIALS: join(dir, "admin.json") },
    admin2: { PLATFORM_CREDENTIALS: join(dir, "admin2.json") },
  };
  const releases = (who: keyof typeof as, ...args: string[]) =>
    platformInProcess(["releases", ...args], [], as[who]);

  beforeAll(async () => {
    // The API's tests above left v20 DEPRECATED (rolled back): start the CLI's from a fresh AVAILABLE v20.
    await putRelease(demo, V20, "AVAILABLE");
    for (const name of ["admin", "admin2"] as const) {
      const login = await platformInProcess(
        ["login", "--url", demo.base, "--username", name, "--password-stdin"],
        [name],
        as[name],
      );
      expect(login.code, login.stderr).toBe(0);
    }
  });

  it("each subcommand has --help", async () => {
    for (const sub of ["list", "history", "transition", "rollback", "approve"]) {
      const help = await releases("admin", sub, "--help");
      expect(help.code, sub).toBe(0);
      expect(help.stdout).toContain(`releases ${sub}`);
    }
  });

  it("list shows the releases in canonical states, in text and --json", async () => {
    const text = await releases("admin", "list");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`ACTIVE\\s+${PROMPT_KEY} ${V19}`));
    const json = await releases("admin", "list", "--json");
    const answer = JSON.parse(json.stdout) as {
      ok: boolean;
      scopes: { releases: { promptVersion: string; status: string }[] }[];
    };
    expect(answer.ok).toBe(true);
    const status = new Map(answer.scopes[0]!.releases.map((r) => [r.promptVersion, r.status]));
    expect([status.get(V19), status.get(V20)]).toEqual(["ACTIVE", "AVAILABLE"]);
  });

  it("transition --dry-run exits 1 with the blockers printed, an older name read as its canonical state", async () => {
    const before = await releases("admin", "history", "--json");
    const run = await releases(
      "admin",
      "transition",
      V20,
      "--key",
      PROMPT_KEY,
      "--to",
      "PRODUCTION",
      "--rationale",
      "try",
      "--dry-run",
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`Dry run: would be BLOCKED ${V20}: AVAILABLE -> ACTIVE`);
    expect(run.stdout).toContain("blocked by ILLEGAL_STATE_TRANSITION");
    expect((await releases("admin", "history", "--json")).stdout).toBe(before.stdout);
    const json = await releases(
      "admin",
      "transition",
      V20,
      "--key",
      PROMPT_KEY,
      "--to",
      "CANARY",
      "--rationale",
      "try",
      "--json",
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      receipt: { outcome: "BLOCKED", targetStatus: "CANARY" },
    });
  });

  it("refuses a wrong command line with exit 2, before calling the server", async () => {
    expect((await releases("admin", "transition", V20, "--to", "SHADOW", "--rationale", "x")).code).toBe(2);
    expect((await releases("admin", "transition", "--key", PROMPT_KEY)).code).toBe(2);
    expect((await releases("admin", "approve", "not-a-key")).code).toBe(2);
    expect((await releases("admin", "history", "--limit", "0")).code).toBe(2);
    expect(
      (await releases("admin", "rollback", "--key", "../x", "--from", V20, "--to", V19, "--reason", "r"))
        .code,
    ).toBe(2);
  });

  it("rollback exits 1 when refused, with every condition printed", async () => {
    const run = await releases(
      "admin",
      "rollback",
      "--key",
      PROMPT_KEY,
      "--from",
      V19,
      "--to",
      V18,
      "--reason",
      "undo v19",
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^REFUSED RBX-/);
    expect(run.stdout).toMatch(/FAILED\s+TARGET_NOT_IN_BUILD/);
  });

  it("an emergency stop waits for another administrator: its operator's approval fails, admin2's ratifies", async () => {
    await putRelease(demo, V20, "CANARY");
    const stop = await releases(
      "admin",
      "rollback",
      "--key",
      PROMPT_KEY,
      "--from",
      V20,
      "--to",
      V19,
      "--reason",
      "v20 blocks too much",
      "--emergency",
      "--json",
    );
    expect(stop.code).toBe(0);
    const { execution } = JSON.parse(stop.stdout) as { execution: { executionKey: string; status: string } };
    expect(execution.status).toBe("AWAITING_APPROVAL");
    expect((await releases("admin", "list")).stdout).toContain(`AWAITING_APPROVAL ${execution.executionKey}`);
    const own = await releases("admin", "approve", execution.executionKey);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain("APPROVAL_BY_OPERATOR_FORBIDDEN");
    const other = await releases("admin2", "approve", execution.executionKey, "--rationale", "checked");
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toContain(`RATIFIED ${execution.executionKey}`);
  });

  it("history lists what was recorded, newest first", async () => {
    const run = await releases("admin", "history", "--limit", "50");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("TRANSITION_BLOCKED");
  });
});

describe("platform releases with a canary share", () => {
  const dir = mkdtempSync(join(tmpdir(), "platform-canary-"));
  const env = { PLATFORM_CREDENTIALS: join(dir, "admin.json") };
  const releases = (...args: string[]) => platformInProcess(["releases", ...args], [], env);
  beforeAll(async () => {
    const login = await platformInProcess(
      ["login", "--url", demo.base, "--username", "admin", "--password-stdin"],
      ["admin"],
      env,
    );
    expect(login.code, login.stderr).toBe(0);
  });

  it("sends --canary-percent, --canary-tenants and --canary-families and prints the share", async () => {
    await putRelease(demo, V20, "SHADOW");
    const run = await releases(
      "transition",
      V20,
      "--key",
      PROMPT_KEY,
      "--to",
      "CANARY",
      "--rationale",
      "try",
      "--canary-percent",
      "10",
      "--canary-tenants",
      "acme, globex",
      "--canary-families",
      "/api/orders",
      "--dry-run",
      "--json",
    );
    const { receipt } = JSON.parse(run.stdout) as { receipt: { canary: unknown } };
    expect(receipt.canary).toEqual({
      canaryPercent: 10,
      canaryTenants: ["acme", "globex"],
      canaryResourceFamilies: ["/api/orders"],
    });
    const text = await releases(
      "transition",
      V20,
      "--key",
      PROMPT_KEY,
      "--to",
      "CANARY",
      "--rationale",
      "t",
      "--canary-percent",
      "10",
      "--dry-run",
    );
    expect(text.stdout).toContain("canary 10%");
  });

  it("refuses a bad share with exit 2 before calling the server", async () => {
    for (const bad of ["101", "-1", "abc", "10.5", ""]) {
      const run = await releases(
        "transition",
        V20,
        "--key",
        PROMPT_KEY,
        "--to",
        "CANARY",
        "--rationale",
        "r",
        "--canary-percent",
        bad,
      );
      expect(run.code, bad).toBe(2);
    }
  });

  it("list shows a CANARY release's share, or that it has none", async () => {
    await putRelease(demo, V20, "CANARY");
    expect((await releases("list")).stdout).toMatch(
      new RegExp(`CANARY\\s+${PROMPT_KEY} ${V20} .*canary whole scope`),
    );
    const registry = demo.platform.resolve(ReleaseRegistry);
    const head = await registry.head("PLATFORM_GLOBAL");
    const releasesNext = head.releases.map((r) =>
      r.promptVersion === V20 ? { ...r, canaryPercent: 10 } : r,
    );
    await registry.replaceHead("PLATFORM_GLOBAL", head.revision, {
      releases: releasesNext,
      openExecutions: head.openExecutions,
    });
    expect((await releases("list")).stdout).toMatch(
      new RegExp(`CANARY\\s+${PROMPT_KEY} ${V20} .*canary 10%`),
    );
  });
});
