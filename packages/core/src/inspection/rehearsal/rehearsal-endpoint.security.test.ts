import { describe, expect, it } from "vitest";
import { PayloadCipher } from "../../decisions/evidence/payload-cipher.js";
import {
  evidencePackageOf,
  sealedEvidenceFixture,
} from "../../decisions/evidence/sealed-evidence.fixture.js";
import { RELEASE_ADMIN_DENIED } from "../../governance/admin/release-admin-access.js";
import { InMemoryReleaseEvidenceLedger } from "../../governance/evidence/in-memory-release-evidence-ledger.js";
import { setCurrentAuthentication } from "../../identity/authentication/authentication.js";
import { ManualClock } from "../../kernel/clock.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { goldenInput, V20 } from "../corpus/clean-packages.fixture.js";
import { BundleRehearsal } from "./bundle-rehearsal.js";
import { REHEARSALS_PATH, RehearsalEndpoint } from "./rehearsal-endpoint.js";

const catalog = loadBundleCatalog();
const DAY = 24 * 60 * 60_000;

async function setup() {
  const clock = new ManualClock(30 * DAY);
  const f = sealedEvidenceFixture({ clock });
  await f.sealed.record({
    ...evidencePackageOf("p1", { at: 29 * DAY }),
    input: goldenInput(catalog, "internal-read"),
  });
  const ledger = new InMemoryReleaseEvidenceLedger();
  const rehearsal = new BundleRehearsal({
    store: f.store,
    cipher: new PayloadCipher({ keys: f.keys, newKid: () => "unused" }),
    catalog,
    ledger,
    audit: f.audit,
    clock,
  });
  const route = new RehearsalEndpoint({ rehearsal, audit: f.audit, clock }).route();
  const call = async (body: string, o: { authorities?: string[] | null; type?: string } = {}) => {
    const exchange = new HttpExchange({
      method: "POST",
      url: REHEARSALS_PATH,
      headers: { "content-type": o.type ?? "application/json" },
      remoteAddress: "203.0.113.9",
      readBody: async () => body,
    });
    const authorities = o.authorities === undefined ? ["ROLE_ADMIN"] : o.authorities;
    if (authorities)
      setCurrentAuthentication(exchange, {
        userId: "u-1",
        username: "root",
        authorities,
        method: "bearer",
        authenticatedAt: 0,
        factors: [],
      });
    await route.handler(exchange, {});
    return exchange;
  };
  return { f, ledger, call, route };
}

describe("POST /platform/admin/api/prompt-inspection/rehearsals", () => {
  it("rehearses the last 7 days by default and answers the summary with its evidence record", async () => {
    const { call, ledger } = await setup();
    const x = await call(JSON.stringify({ candidate: V20 }));
    const body = x.response.body as {
      rehearsal: { packages: number; period: unknown };
      record: { kind: string };
    };
    expect(x.response.status).toBe(200);
    expect(x.response.headers.get("cache-control")).toBe("no-store");
    expect(body.rehearsal).toMatchObject({ packages: 1, period: { from: 23 * DAY, to: 30 * DAY } });
    expect(body.record.kind).toBe("REHEARSAL");
    expect(await ledger.list({ promptKey: catalog.find(V20)!.manifest.descriptor.promptKey })).toHaveLength(
      1,
    );
  });

  it("takes ISO-8601 instants with an offset, and record: false records nothing", async () => {
    const { call, ledger } = await setup();
    const from = new Date(28 * DAY).toISOString();
    const x = await call(JSON.stringify({ candidate: V20, from, to: 30 * DAY, limit: 1, record: false }));
    expect((x.response.body as { record: unknown }).record).toBeNull();
    expect(await ledger.list({ promptKey: catalog.find(V20)!.manifest.descriptor.promptKey })).toEqual([]);
  });

  it("is for administrators only: 401 anonymous, 403 audited for anyone else", async () => {
    const { call, f } = await setup();
    const body = JSON.stringify({ candidate: V20 });
    expect(await codeOf(call(body, { authorities: null }))).toBe("AUTHENTICATION_REQUIRED");
    expect(await codeOf(call(body, { authorities: ["ROLE_USER"] }))).toBe("ACCESS_DENIED");
    expect(f.audit.events().filter((e) => e.type === RELEASE_ADMIN_DENIED)).toHaveLength(1);
  });

  it.each([
    ["malformed JSON", "{candidate:", "MALFORMED_JSON"],
    ["a missing candidate", "{}", "VALIDATION_FAILED"],
    ["an empty body", "", "MALFORMED_JSON"],
    ["an oversized candidate", JSON.stringify({ candidate: "v".repeat(65) }), "VALIDATION_FAILED"],
    ["a limit above 1,000", JSON.stringify({ candidate: V20, limit: 1_001 }), "VALIDATION_FAILED"],
    ["a limit of 0", JSON.stringify({ candidate: V20, limit: 0 }), "VALIDATION_FAILED"],
    ["a fractional limit", JSON.stringify({ candidate: V20, limit: 1.5 }), "VALIDATION_FAILED"],
    ["a path as candidate", JSON.stringify({ candidate: "../../etc/passwd" }), "VALIDATION_FAILED"],
    ["a script as candidate", JSON.stringify({ candidate: "<script>" }), "VALIDATION_FAILED"],
    ["an unknown field", JSON.stringify({ candidate: V20, model: "gpt" }), "VALIDATION_FAILED"],
    ["a prototype key", `{"candidate":"${V20}","__proto__":{"limit":5}}`, "VALIDATION_FAILED"],
    ["from after to", JSON.stringify({ candidate: V20, from: 20, to: 10 }), "VALIDATION_FAILED"],
    [
      "a period of 56 years",
      JSON.stringify({ candidate: V20, from: 0, to: "2026-11-29" }),
      "VALIDATION_FAILED",
    ],
    ["an empty period", JSON.stringify({ candidate: V20, from: 10, to: 10 }), "VALIDATION_FAILED"],
    ["a day the calendar lacks", JSON.stringify({ candidate: V20, to: "2026-02-30" }), "VALIDATION_FAILED"],
    [
      "an instant without offset",
      JSON.stringify({ candidate: V20, from: "2026-01-01T00:00" }),
      "VALIDATION_FAILED",
    ],
    [
      "an impossible date",
      JSON.stringify({ candidate: V20, from: "2026-02-31T00:00:00Z" }),
      "VALIDATION_FAILED",
    ],
    ["a negative instant", JSON.stringify({ candidate: V20, to: -1 }), "VALIDATION_FAILED"],
    ["an instant past the last date", JSON.stringify({ candidate: V20, to: 9e15 }), "VALIDATION_FAILED"],
    ["a string record flag", JSON.stringify({ candidate: V20, record: "false" }), "VALIDATION_FAILED"],
    ["an array body", JSON.stringify([{ candidate: V20 }]), "MALFORMED_BODY"],
    [
      "a bundle not in the build",
      JSON.stringify({ candidate: "2099.01.01-v99" }),
      "PROMPT_BUNDLE_NOT_IN_BUILD",
    ],
  ])("refuses %s with a stable code", async (_name, body, code) => {
    const { call, ledger } = await setup();
    expect(await codeOf(call(body))).toBe(code);
    expect(await ledger.list({ promptKey: catalog.find(V20)!.manifest.descriptor.promptKey })).toEqual([]);
  });

  it("refuses a form post (JSON only) and an oversized body the binding stops", async () => {
    const { call, route } = await setup();
    expect(await codeOf(call("candidate=x", { type: "application/x-www-form-urlencoded" }))).toBe(
      "UNSUPPORTED_MEDIA_TYPE",
    );
    const oversized = new HttpExchange({
      method: "POST",
      url: REHEARSALS_PATH,
      headers: { "content-type": "application/json" },
      remoteAddress: "203.0.113.9",
      readBody: async () => {
        const { PlatformError } = await import("../../kernel/platform-error.js");
        throw new PlatformError("PAYLOAD_TOO_LARGE", "too large");
      },
    });
    setCurrentAuthentication(oversized, {
      userId: "u-1",
      username: "root",
      authorities: ["ROLE_ADMIN"],
      method: "bearer",
      authenticatedAt: 0,
      factors: [],
    });
    expect(await codeOf(Promise.resolve(route.handler(oversized, {})))).toBe("PAYLOAD_TOO_LARGE");
  });
});
