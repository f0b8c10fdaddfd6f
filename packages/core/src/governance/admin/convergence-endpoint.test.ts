import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCurrentAuthentication } from "../../identity/authentication/authentication.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { createPlatform, type Platform } from "../../kernel/platform.js";
import { promptsPlugin } from "../../prompts/prompts-plugin.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Route } from "../../web/route-table.js";
import type { ConvergenceReportJson } from "../../web/wire/convergence-messages.js";
import { HeartbeatWriter } from "../convergence/heartbeat-writer.js";
import { InstanceHeartbeatStore } from "../convergence/instance-heartbeat-store.js";
import { ServingSelector } from "../convergence/convergence.fixture.js";
import { KEY, LedgerKindGate, V19 } from "../governance.fixture.js";
import { ReleaseEvidenceLedger } from "../evidence/release-evidence-ledger.js";
import { promptGovernancePlugin } from "../governance-plugin.js";
import { ReleaseRegistry } from "../registry/release-registry.js";
import { EvidenceGate } from "../release-governance.js";
import { InstanceIdentity } from "../../kernel/instance-identity.js";
import { Logger } from "../../kernel/logger.js";
import { releaseAdminRoutes } from "./register-release-admin.js";
import { CONVERGENCE_API } from "./convergence-endpoint.js";

// The endpoint over the platform promptGovernancePlugin assembles (real in-memory registry and
// heartbeat store, a manual clock), two instances beating through the store port.
const START = Date.UTC(2026, 9, 1);
const clock = new ManualClock(START);
const audit = new InMemoryAuditSink(100, clock);
let platform: Platform;
let route: Route;

function exchange(query = "", authorities?: readonly string[]): HttpExchange {
  const x = new HttpExchange({
    method: "GET",
    url: `${CONVERGENCE_API}${query}`,
    headers: {},
    remoteAddress: "203.0.113.9",
  });
  if (authorities)
    setCurrentAuthentication(x, {
      userId: "u1",
      username: authorities.includes("ROLE_ADMIN") ? "admin" : "user",
      authorities,
      method: "bearer",
      authenticatedAt: clock.now(),
      factors: [],
    });
  return x;
}

/** The route's handler as a promise (it is async). */
const call = async (x: HttpExchange, params: Record<string, string>) => route.handler(x, params);

async function answer(query = ""): Promise<ConvergenceReportJson> {
  const x = exchange(query, ["ROLE_ADMIN"]);
  await route.handler(x, {});
  expect(x.response.status).toBe(200);
  expect(x.response.headers.get("cache-control")).toBe("no-store");
  return x.response.body as unknown as ConvergenceReportJson;
}

beforeAll(async () => {
  platform = createPlatform({
    plugins: [promptsPlugin, promptGovernancePlugin],
    register: (c) => {
      c.registerInstance(Clock, clock);
      c.registerInstance(AuditSink, audit);
    },
    overrides: (o) =>
      o.override(EvidenceGate, { useFactory: (c) => new LedgerKindGate(c.resolve(ReleaseEvidenceLedger)) }),
  });
  await platform.start();
  route = releaseAdminRoutes(platform.container).find((r) => r.path === CONVERGENCE_API)!;
  const head = await platform.resolve(ReleaseRegistry).head("PLATFORM_GLOBAL");
  const v19 = head.releases.find((r) => r.promptVersion === V19)!;
  const store = platform.resolve(InstanceHeartbeatStore);
  const beat = (id: string, hash: string) =>
    new HeartbeatWriter({
      store,
      identity: new InstanceIdentity(id, START),
      selector: new ServingSelector([
        {
          registryScope: "PLATFORM_GLOBAL",
          promptKey: KEY,
          promptVersion: V19,
          bundleHash: hash,
          source: "REGISTRY",
        },
      ]),
      clock,
      logger: platform.resolve(Logger),
      intervalMs: 15_000,
    }).beatOnce();
  await beat("quiet", v19.artifactHash);
  clock.advance(90_000); // past the bound (80 s) and silent-after (60 s)
  await beat("behind", "0".repeat(64));
  await beat("current", v19.artifactHash);
});
afterAll(() => platform.stop());

describe("GET /platform/admin/api/prompt-quality/convergence", () => {
  it("refuses an anonymous caller (AUTHENTICATION_REQUIRED) and a non-administrator (ACCESS_DENIED, audited)", async () => {
    expect(await codeOf(call(exchange(), {}))).toBe("AUTHENTICATION_REQUIRED");
    expect(await codeOf(call(exchange("", ["ROLE_USER"]), {}))).toBe("ACCESS_DENIED");
    expect(audit.events().at(-1)).toMatchObject({ type: "release.admin.denied", principal: "user" });
  });

  it("answers an administrator every instance's verdict: a stale and a silent one flagged", async () => {
    const report = await answer();
    expect(report).toMatchObject({ generatedAt: clock.now(), boundMs: 80_000, silentAfterMs: 60_000 });
    expect(report.instances.map((i) => [i.instanceId, i.verdict])).toEqual([
      ["behind", "STALE"],
      ["current", "CONVERGED"],
      ["quiet", "SILENT"],
    ]);
    expect(report.scopes[0]).toMatchObject({
      registryScope: "PLATFORM_GLOBAL",
      releases: [{ promptKey: KEY, promptVersion: V19, status: "ACTIVE" }],
    });
    expect((await answer("?registryScope=tenant-x")).scopes).toEqual([]);
    // A blank parameter is as absent (a GET form's empty field).
    expect((await answer("?registryScope=")).instances).toHaveLength(3);
  });

  for (const [what, query] of [
    ["an unknown parameter", "?verdict=STALE"],
    ["an operator-shaped parameter", "?registryScope[$ne]=x"],
    ["a repeated parameter", "?registryScope=a&registryScope=b"],
    ["a control character", "?registryScope=a%00b"],
    ["a path in the scope", "?registryScope=../admin"],
    ["an oversized scope", `?registryScope=${"a".repeat(129)}`],
    ["script in the scope", "?registryScope=%3Cscript%3E"],
  ])
    it(`refuses ${what} with VALIDATION_FAILED`, async () => {
      expect(await codeOf(call(exchange(query, ["ROLE_ADMIN"]), {}))).toBe("VALIDATION_FAILED");
    });
});
