import { AuditLog } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SealedEvidence,
  SealedEvidenceToken,
} from "../../packages/core/src/decisions/evidence/sealed-evidence-service.js";
import {
  type InspectionRound,
  InspectionRoundToken,
} from "../../packages/core/src/inspection/service/inspection-round.js";
import { loadBundleCatalog } from "../../packages/core/src/prompts/manifest/bundle-catalog.js";
import { BROKEN_CASES } from "../../packages/core/src/inspection/corpus/broken-packages.fixture.js";
import { cleanPackage } from "../../packages/core/src/inspection/corpus/clean-packages.fixture.js";
import type {
  InspectionOverviewJson,
  InspectionPackageDetailJson,
  InspectionPackagePageJson,
  ReinspectionStatusJson,
} from "../../packages/core/src/web/wire/inspection-messages.js";
import { bearerHeaders, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The prompt-inspection admin API on one demo: packages sealed through the demo's own SealedEvidence
// (captured now), inspected through the API, then read back; hostile input on every endpoint.
const API = "/platform/admin/api/prompt-inspection";
const DAY = 86_400_000;

let demo: RunningDemo;
let admin: Record<string, string>;
let user: Record<string, string>;
const now = Date.now();

beforeAll(async () => {
  demo = await startDemo({}, { ...NO_MFA_FOR_ADMINS, "platform.prompt-inspection.initial-delay": "1d" });
  [admin, user] = await Promise.all([
    bearerHeaders(demo.base, "admin", "admin"),
    bearerHeaders(demo.base, "user", "password"),
  ]);
  const catalog = loadBundleCatalog();
  const sealed = demo.platform.resolve<SealedEvidence>(SealedEvidenceToken);
  const clean = cleanPackage(catalog, { golden: "external-admin-delete", id: "pkg-clean" });
  await sealed.record({ ...clean, at: now - 3_000 });
  const broken = BROKEN_CASES.find((c) => c.name === "a fact's value off by one letter")!;
  const base = cleanPackage(catalog, { ...broken.from, id: "pkg-broken" });
  await sealed.record({ ...broken.change(base), at: now - 2_000 });
  await sealed.record({ ...clean, id: "pkg-late", at: now - 1_000 });
});
afterAll(() => demo.close());

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${demo.base}${API}${path}`, {
    method,
    headers: { accept: "application/json", "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
const json = async <T>(res: Response, status = 200): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
};

describe("the prompt-inspection API", () => {
  it("inspects a package on request and answers its findings on their prompt lines, its seal and prompts", async () => {
    const clean = await json<InspectionPackageDetailJson>(
      await call("POST", "/packages/pkg-clean/reinspect", admin),
    );
    // The demo's registry never approved the corpus's release, and its users are not the golden
    // inputs' subjects: BUNDLE_TRACE and the sample fact source (wired: not NOT_INTEGRATED) say so.
    expect(new Set(clean.result!.findings.map((f) => `${f.kind}:${f.check}:${f.reason}`))).toEqual(
      new Set([
        "UNVERIFIABLE:BUNDLE_TRACE:APPROVAL_CHANGED_SINCE",
        "UNVERIFIABLE:SOURCE_TRUTH:NO_HOST_RECORD",
      ]),
    );
    expect(clean.result).toMatchObject({
      verdict: "INCOMPLETE",
      mismatches: 0,
      inspectorVersion: "prompt-inspector/1",
    });
    const status = (check: string) => clean.result!.checks.find((c) => c.check === check)?.status;
    expect([status("SEAL_INTEGRITY"), status("REASON_MATCH"), status("FACT_ACCURACY")]).toEqual([
      "PASS",
      "PASS",
      "PASS",
    ]);
    expect(clean.seal).toMatchObject({ intact: true, erased: false });
    expect(clean.prompts?.length).toBe(1);
    const broken = await json<InspectionPackageDetailJson>(
      await call("POST", "/packages/pkg-broken/reinspect", admin, {}),
    );
    expect(broken.result?.verdict).toBe("FAIL");
    const onLine = broken.result!.findings.find((f) => f.kind === "MISMATCH" && f.location?.line);
    const { location, promptLine } = onLine!;
    expect(promptLine).toBe(
      broken.prompts![location!.prompt]![location!.part].split("\n")[location!.line! - 1],
    );
    const read = await json<InspectionPackageDetailJson>(await call("GET", "/packages/pkg-broken", admin));
    expect(read.result?.findings).toEqual(broken.result?.findings);
    const audited = await demo.platform.resolve(AuditLog).query({ type: "evidence.package.read" });
    expect(audited.some((e) => e.principal === "admin" && e.data?.packageId === "pkg-broken")).toBe(true);
  });

  it("counts a period by verdict, check and finding kind (default: the last 7 days)", async () => {
    const o = await json<InspectionOverviewJson>(await call("GET", "/overview", admin));
    expect(o.to - o.from).toBe(7 * DAY);
    expect(o).toMatchObject({
      inspected: 2,
      truncated: false,
      byVerdict: { PASS: 0, FAIL: 1, INCOMPLETE: 1 },
    });
    expect(o.byCheck.map((c) => c.check)).toHaveLength(10);
    expect(o.byCheck.find((c) => c.mismatchPackages > 0)).toBeDefined();
    expect(o.byReason.some((r) => r.kind === "MISMATCH")).toBe(true);
    expect(o.byReason.some((r) => r.kind === "UNVERIFIABLE")).toBe(true);
    const past = await json<InspectionOverviewJson>(
      await call("GET", `/overview?from=2020-01-01&to=2020-01-02T00:00:00Z`, admin),
    );
    expect(past).toMatchObject({ from: Date.UTC(2020, 0, 1), to: Date.UTC(2020, 0, 2), inspected: 0 });
  });

  it("lists packages by verdict, check, block and entry, a page at a time", async () => {
    const all = await json<InspectionPackagePageJson>(await call("GET", "/packages?limit=1", admin));
    expect(all.packages.map((p) => p.packageId)).toEqual(["pkg-broken"]);
    const rest = await json<InspectionPackagePageJson>(
      await call("GET", `/packages?limit=1&cursor=${all.next}`, admin),
    );
    expect(rest).toEqual({ packages: [expect.objectContaining({ packageId: "pkg-clean" })], next: null });
    const failed = await json<InspectionPackagePageJson>(await call("GET", "/packages?verdict=FAIL", admin));
    expect(failed.packages.map((p) => p.packageId)).toEqual(["pkg-broken"]);
    const check = failed.packages[0]!.failedChecks[0]!;
    const byCheck = await json<InspectionPackagePageJson>(
      await call("GET", `/packages?check=${check}`, admin),
    );
    expect(byCheck.packages.map((p) => p.packageId)).toEqual(["pkg-broken"]);
    // What each block or entry filter must find, worked out from the two packages' own findings.
    const keysOf = async (id: string) =>
      (await json<InspectionPackageDetailJson>(await call("GET", `/packages/${id}`, admin)))
        .result!.findings.map((f) => f.key)
        .filter((k): k is string => k !== null);
    const keys = { "pkg-broken": await keysOf("pkg-broken"), "pkg-clean": await keysOf("pkg-clean") };
    const mismatchKey = (
      await json<InspectionPackageDetailJson>(await call("GET", "/packages/pkg-broken", admin))
    ).result!.findings.find((f) => f.kind === "MISMATCH" && f.key?.includes("."))!.key!;
    const block = mismatchKey.split(".")[0]!;
    const expected = (match: (k: string) => boolean) =>
      (["pkg-broken", "pkg-clean"] as const).filter((id) => keys[id].some(match));
    const cases: [string, string[]][] = [
      [`block=${block.toUpperCase()}`, expected((k) => k.startsWith(`${block}.`))],
      [`entry=${mismatchKey}`, expected((k) => k === mismatchKey)],
      [`block=${block}&entry=${mismatchKey}&verdict=FAIL`, ["pkg-broken"]],
      ["block=PAST_RECORDS", expected((k) => k.startsWith("past-record:"))],
      ["block=device", expected((k) => k.startsWith("device."))],
    ];
    for (const [q, ids] of cases) {
      const page = await json<InspectionPackagePageJson>(await call("GET", `/packages?${q}`, admin));
      expect(
        page.packages.map((p) => p.packageId),
        q,
      ).toEqual(ids);
    }
    const none = await json<InspectionPackagePageJson>(await call("GET", "/packages?verdict=PASS", admin));
    expect(none.packages).toEqual([]);
  });

  it("reinspects a capture period through the round; a second request while one runs is CONFLICT", async () => {
    expect(await json<ReinspectionStatusJson>(await call("GET", "/reinspections", admin))).toEqual({
      job: null,
    });
    const body = { from: new Date(now - 60_000).toISOString(), to: now };
    const started = await json<ReinspectionStatusJson>(
      await call("POST", "/reinspections", admin, body),
      202,
    );
    expect(started.job).toMatchObject({ state: "RUNNING", total: 3, inspected: 0, requestedBy: "admin" });
    const second = await call("POST", "/reinspections", admin, body);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: "CONFLICT" });
    // The automatic round does the work, under its lock: batches of 50, so one round takes all three.
    const round = demo.platform.resolve<InspectionRound>(InspectionRoundToken);
    expect(await round.runOnce()).toMatchObject({ ran: true, reinspected: 3 });
    await round.runOnce();
    const done = await json<ReinspectionStatusJson>(await call("GET", "/reinspections", admin));
    expect(done.job).toMatchObject({ state: "DONE", total: 3, inspected: 3 });
    const late = await json<InspectionPackageDetailJson>(await call("GET", "/packages/pkg-late", admin));
    expect(late.result?.verdict).toBe("INCOMPLETE");
    expect((await call("POST", "/reinspections", admin, body)).status).toBe(202);
  });
});

const ENDPOINTS: [string, string, unknown][] = [
  ["GET", "/overview", undefined],
  ["GET", "/packages", undefined],
  ["GET", "/packages/pkg-clean", undefined],
  ["POST", "/packages/pkg-clean/reinspect", {}],
  ["POST", "/reinspections", { from: 0, to: 1 }],
  ["GET", "/reinspections", undefined],
];

describe("the prompt-inspection API refuses callers and input it must not take", () => {
  it("anonymous 401 (a POST: the CSRF 403 first), a non-administrator 403 audited, no-store", async () => {
    for (const [method, path, body] of ENDPOINTS) {
      const anonymous = await call(method, path, {}, body);
      const { code } = (await anonymous.json()) as { code: string };
      const expected =
        method === "GET"
          ? ["401 AUTHENTICATION_REQUIRED"]
          : ["401 AUTHENTICATION_REQUIRED", "403 CSRF_TOKEN_INVALID"];
      expect(expected, `${method} ${path}`).toContain(`${anonymous.status} ${code}`);
      const refused = await call(method, path, user, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect(await refused.json()).toMatchObject({ code: "ACCESS_DENIED" });
    }
    const denied = await demo.platform.resolve(AuditLog).query({ type: "inspection.admin.denied" });
    expect(denied.filter((e) => e.principal === "user")).toHaveLength(ENDPOINTS.length);
  });

  it.each([
    ["/overview?from=yesterday", "from"],
    ["/overview?from=2026-13-45", "from"],
    ["/overview?from=2026-02-30", "from"], // no such day (Date.parse would roll it over to March)
    ["/overview?from=2026-11-02&to=2026-11-01", "from"],
    ["/overview?from=0&to=99999999999999", "to"],
    ["/overview?from=-5", "from"],
    ["/overview?to=1e3", "to"],
    ["/overview?from=1&from=2", "from"],
    ["/overview?period=7d", "period"],
    ["/overview?from=%E2%80%AE2026", "from"],
    ["/packages?verdict=BROKEN", "verdict"],
    ["/packages?verdict=pass", "verdict"],
    ["/packages?check=NO_SUCH_CHECK", "check"],
    ["/packages?block=NOWHERE", "block"],
    ["/packages?entry=request.nothing", "entry"],
    ["/packages?block=IDENTITY&entry=request.subject", "entry"],
    ["/packages?limit=0", "limit"],
    ["/packages?limit=101", "limit"],
    ["/packages?cursor=not-a-cursor", "cursor"],
    [`/packages?cursor=${Buffer.from('[1,"x"]').toString("base64url")}`, "cursor"],
    [`/packages?cursor=${"A".repeat(401)}`, "cursor"],
    ["/packages?from=5&to=5", "from"],
    ["/packages/bad%20id", "packageId"],
    [`/packages/${"p".repeat(129)}`, "packageId"],
  ])("GET %s is 400 VALIDATION_FAILED naming %s", async (path, field) => {
    const res = await call("GET", path, admin);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe("VALIDATION_FAILED");
    expect(body.message).toContain(field);
  });

  it.each([
    ["/reinspections", "not JSON", "{", 400, "MALFORMED_JSON"],
    ["/reinspections", "an array", "[]", 400, "MALFORMED_BODY"],
    ["/reinspections", "no to", { from: 0 }, 400, "VALIDATION_FAILED"],
    ["/reinspections", "from after to", { from: 10, to: 5 }, 400, "VALIDATION_FAILED"],
    ["/reinspections", "a period over 366 days", { from: 0, to: 367 * DAY }, 400, "VALIDATION_FAILED"],
    ["/reinspections", "a bad date", { from: "2026-02-30T99:00:00Z", to: 5 }, 400, "VALIDATION_FAILED"],
    ["/reinspections", "a field it does not take", { from: 0, to: 1, all: true }, 400, "VALIDATION_FAILED"],
    ["/reinspections", "a number as text with a sign", { from: "-1", to: 5 }, 400, "VALIDATION_FAILED"],
    ["/packages/pkg-clean/reinspect", "a body with a field", { force: true }, 400, "VALIDATION_FAILED"],
    ["/packages/no-such-package/reinspect", "an unknown package", {}, 404, "NOT_FOUND"],
  ])("POST %s with %s", async (path, _what, body, status, code) => {
    const res = await call("POST", path, admin, body);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ code });
  });

  it("an unknown package is 404; an oversized body 413; other methods 405; never a 500", async () => {
    expect((await call("GET", "/packages/no-such-package", admin)).status).toBe(404);
    const huge = await call("POST", "/reinspections", admin, { from: 0, to: 1, x: "x".repeat(1_100_000) });
    expect(huge.status).toBe(413);
    const other = await call("DELETE", "/reinspections", admin);
    expect(other.status).toBe(405);
    expect(other.headers.get("allow")).toContain("POST");
    const traversal = await call("GET", "/packages/..%2F..%2Fchain", admin);
    expect(traversal.status).toBeLessThan(500);
  });
});
