import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog, SealedEvidenceStore } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformInProcess } from "../cli/platform-command-runs.js";
import {
  bearerHeaders,
  NO_MFA_FOR_ADMINS,
  type RunningDemo,
  seedUser,
  startDemo,
} from "../support/demo-server.js";

const API = "/platform/admin/api/security-decisions";

describe("the security-decisions admin API guards itself", () => {
  let demo: RunningDemo;
  let admin: Record<string, string>;
  let user: Record<string, string>;
  beforeAll(async () => {
    demo = await startDemo({}, { ...NO_MFA_FOR_ADMINS, "platform.security.decision.enabled": true });
    admin = await bearerHeaders(demo.base, "admin", "admin", {});
    user = await bearerHeaders(demo.base, "user", "password", {});
  });
  afterAll(() => demo.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${demo.base}${API}${path}`, { headers });

  it("answers an anonymous API caller 401, and shows an anonymous browser no decision", async () => {
    for (const path of ["", "/some-id"]) {
      const res = await get(path, { accept: "application/json" });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
      const page = await get(path);
      expect(page.headers.get("content-type")).toContain("text/html"); // the chain's sign-in page
      expect(await page.text()).not.toContain("decisions");
    }
  });

  it("answers a signed-in non-administrator 403, audited", async () => {
    for (const path of ["", "/some-id"]) {
      const res = await get(path, user);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: "ACCESS_DENIED" });
    }
    const denied = await demo.platform.resolve(AuditLog).query({ type: "decision.admin.denied" });
    expect(denied.map((e) => e.principal)).toEqual(["user", "user"]);
  });

  it("answers an administrator the list (the two sign-ins above were decided)", async () => {
    const res = await get("?limit=200", admin);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { decisions: { eventKind: string }[]; limit: number };
    expect(body.limit).toBe(200);
    expect(body.decisions.every((d) => d.eventKind === "SIGN_IN_COMPLETED")).toBe(true);
  });

  it.each([
    ["?limit=0", "limit"],
    ["?limit=201", "limit"],
    ["?limit=1e2", "limit"],
    ["?limit=-1", "limit"],
    ["?limit=", "limit"],
    ["?action=block", "action"],
    ["?action=DROP%20TABLE", "action"],
    ["?layer=L3", "layer"],
    ["?since=yesterday", "since"],
    ["?since=99999999999999999999", "since"],
    ["?until=2026-13-45T99:99:99Z", "until"],
    ["?since=2000&until=1000", "since"],
    ["?user=%00admin", "user"],
    [`?user=${"x".repeat(300)}`, "user"],
    ["?user=a&user=b", "user"],
    ["?usr=alice", "usr"],
    ["?__proto__=1", "__proto__"],
  ])("refuses %s with 400 VALIDATION_FAILED naming %s", async (query, field) => {
    const res = await get(query, admin);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "VALIDATION_FAILED", fields: [field] });
  });

  it("answers an administrator one decision with its seal intact, an audited read of its prompts", async () => {
    const list = (await (await get("?limit=1", admin)).json()) as { decisions: { id: string }[] };
    const res = await get(`/${list.decisions[0]!.id}`, admin);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sealed: boolean; seal: { intact: boolean }; prompts: unknown[] };
    expect(body).toMatchObject({ sealed: true, seal: { intact: true, reason: null } });
    expect(body.prompts.length).toBeGreaterThan(0);
    const reads = await demo.platform.resolve(AuditLog).query({ type: "evidence.package.read" });
    expect(reads.map((e) => e.principal)).toContain("admin");
  });

  it("guards the evidence chain: 401 anonymous, 403 non-administrator, 400 hostile, the chain to an administrator", async () => {
    const chain = (query: string, headers: Record<string, string>) =>
      fetch(`${demo.base}/platform/admin/api/prompt-inspection/chain${query}`, { headers });
    expect((await chain("", { accept: "application/json" })).status).toBe(401);
    expect((await chain("", user)).status).toBe(403);
    expect((await chain("?instance=%00", admin)).status).toBe(400);
    expect((await chain(`?instance=${"x".repeat(500)}`, admin)).status).toBe(400);
    const heads = (await (await chain("", admin)).json()) as { chains: { instanceId: string }[] };
    expect(heads.chains).toHaveLength(1);
    const page = await chain(`?instance=${heads.chains[0]!.instanceId}`, admin);
    expect(page.status).toBe(200);
    expect(((await page.json()) as { entries: unknown[] }).entries.length).toBeGreaterThan(0);
  });

  it("answers an unknown or hostile id 404 or 400, never 500", async () => {
    expect((await get("/no-such-decision", admin)).status).toBe(404);
    expect((await get("/%2e%2e", admin)).status).toBe(404);
    expect((await get(`/${"a".repeat(129)}`, admin)).status).toBe(400);
    expect((await get("/%00", admin)).status).toBe(400);
  });

  it("deleting an account erases its sealed prompts: the detail shows the seal intact and erased, no prompts", async () => {
    await seedUser(demo.platform, "erin", "erin-password-1");
    const erin = await bearerHeaders(demo.base, "erin", "erin-password-1", {});
    const me = (await (await fetch(`${demo.base}/api/me`, { headers: erin })).json()) as { id: string };
    // The sign-in is decided and sealed after the answer: wait for its record.
    let id: string | undefined;
    for (let i = 0; i < 100 && id === undefined; i++) {
      const list = (await (await get("?user=erin", admin)).json()) as { decisions: { id: string }[] };
      id = list.decisions[0]?.id;
      if (id === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    expect((await (await get(`/${id}`, admin)).json()) as object).toMatchObject({ sealed: true });
    const deleted = await fetch(`${demo.base}/admin/api/users/${me.id}`, {
      method: "DELETE",
      headers: admin,
    });
    expect(deleted.status).toBe(204);
    const body = (await (await get(`/${id}`, admin)).json()) as { seal: object; prompts: unknown[] | null };
    expect(body.seal).toMatchObject({ intact: true, erased: true });
    expect(body.prompts ?? []).toEqual([]);
    const audit = await demo.platform.resolve(AuditLog).query({ type: "user.deleted" });
    expect(audit.at(-1)?.data).toMatchObject({
      userId: me.id,
      hooks: ["mfa-factors", "sealed-evidence-erasure"],
    });
  });

  it("platform evidence verify proves the chain intact through the admin API, then names a package dropped without a deletion entry", async () => {
    const env = { PLATFORM_CREDENTIALS: join(mkdtempSync(join(tmpdir(), "evidence-verify-")), "admin.json") };
    const login = await platformInProcess(
      ["login", "--url", demo.base, "--username", "admin", "--password-stdin"],
      ["admin"],
      env,
    );
    expect(login.code, login.stderr).toBe(0);
    const intact = await platformInProcess(["evidence", "verify", "--json"], [], env);
    expect(intact.code, intact.stderr).toBe(0);
    const answer = JSON.parse(intact.stdout) as { ok: boolean; chains: { entries: number }[] };
    expect(answer.ok).toBe(true);
    expect(answer.chains[0]!.entries).toBeGreaterThan(0);
    const store = demo.platform.resolve(SealedEvidenceStore);
    const [record] = await store.recentRecords(1);
    expect(await store.dropPackage(record!.id)).toBe(true);
    const broken = await platformInProcess(["evidence", "verify"], [], env);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(
      new RegExp(`UNRECORDED_DELETION at sequence \\d+ \\(package ${record!.id}\\)`),
    );
  });
});
