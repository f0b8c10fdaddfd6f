import { describe, expect, it } from "vitest";
import { InMemoryDecisionHistoryStore } from "../../decisions/history/in-memory-decision-history-store.js";
import { InMemoryUserRepository } from "../../identity/users/in-memory-user-repository.js";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { cleanPackage, releaseRows, rowLookup } from "../corpus/clean-packages.fixture.js";
import { withSeal } from "../corpus/corpus-seal.fixture.js";
import { verifySealedPackage } from "../checks/sealed-package-verifier.js";
import { inspectPackage } from "../inspect-package.js";
import type { InspectedPackage } from "../inspected-package.js";
import type { PromptFactSourceVerifier } from "../prompt-fact-source-verifier.js";
import { StoreFactSourceVerifier } from "./store-fact-source-verifier.js";

const DAY_MS = 86_400_000;
const catalog = loadBundleCatalog();

/** The demo's stores holding what the golden `internal-read` context says of alice, and her package. */
async function alicesWorld() {
  const base = cleanPackage(catalog, { golden: "internal-read" });
  const clock = new ManualClock(base.at - 812 * DAY_MS - 3_600_000);
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock });
  const history = new InMemoryDecisionHistoryStore();
  const alice = await users.create({
    username: "alice",
    authorities: ["ROLE_USER", "ROLE_ANALYST", "orders:read", "reports:read"],
  });
  await history.append({
    id: "dec-0990",
    at: Date.parse("2026-07-29T16:02:11Z"),
    eventId: "e",
    eventKind: "SIGN_IN_COMPLETED",
    userId: alice.id,
    action: "ALLOW",
  });
  const pkg = withSeal({
    ...base,
    id: `${base.id}-${alice.id}`,
    metadata: { ...base.metadata, userId: alice.id },
  });
  const verifier = new StoreFactSourceVerifier({ users, history });
  const inspect = (p: InspectedPackage = pkg, v: PromptFactSourceVerifier = verifier) =>
    inspectPackage(p, {
      catalog,
      verifySeal: verifySealedPackage,
      releaseRow: rowLookup(releaseRows(catalog)),
      verifier: v,
      now: 1,
    });
  return { users, history, alice, pkg, inspect };
}

describe("SOURCE_TRUTH with the sample verifier over the platform's own stores", () => {
  it("confirms subject, roles, permissions, account age and the past record: PASS", async () => {
    const { inspect } = await alicesWorld();
    const r = await inspect();
    expect(r.findings).toEqual([]);
    expect(r.checks.find((c) => c.check === "SOURCE_TRUTH")).toEqual({
      check: "SOURCE_TRUTH",
      status: "PASS",
      items: 5,
    });
    expect(r.verdict).toBe("PASS");
  });

  it("roles the account does not hold are a MISMATCH on the roles line", async () => {
    const { users, alice, inspect } = await alicesWorld();
    await users.update({ ...alice, authorities: ["ROLE_USER", "orders:read", "reports:read"] });
    const r = await inspect();
    expect(r.verdict).toBe("FAIL");
    expect(r.findings).toEqual([
      expect.objectContaining({
        check: "SOURCE_TRUTH",
        kind: "MISMATCH",
        reason: "HOST_RECORD_DIFFERS",
        key: "request.roles",
        factId: "F3",
        location: { prompt: 0, layer: "L1", part: "user", line: 4 },
      }),
    ]);
  });

  it("a past record the history no longer holds is UNVERIFIABLE (NO_HOST_RECORD); a failing verifier SOURCE_UNAVAILABLE", async () => {
    const { users, pkg, inspect } = await alicesWorld();
    const empty = new StoreFactSourceVerifier({ users, history: new InMemoryDecisionHistoryStore() });
    const r = await inspect(pkg, empty);
    expect(r.findings.map((f) => `${f.kind}:${f.reason}:${f.key}`)).toEqual([
      "UNVERIFIABLE:NO_HOST_RECORD:past-record:dec-0990",
    ]);
    expect(r.verdict).toBe("INCOMPLETE");
    const failing = { verify: () => Promise.reject(new Error("host down")) };
    const down = await inspect(pkg, failing);
    expect(down.findings.map((f) => f.reason)).toEqual(["SOURCE_UNAVAILABLE"]);
  });
});
