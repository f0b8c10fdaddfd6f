import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";
import { Browser } from "../identity/identity-test-server.js";

// A stored `{var:regex}` is run on every request path it might match, anonymous ones included.
// Over HTTP a segment is at most a little under the firewall's 2,048-character path limit.
const SEGMENT_LENGTH = 2_000;
// A backtracking engine needs longer than the universe's age for these; RE2 needs milliseconds.
const BUDGET_MS = 1_000;

const hostile = (unit: string, tail = "%21"): string =>
  unit.repeat(Math.ceil(SEGMENT_LENGTH / unit.length)).slice(0, SEGMENT_LENGTH) + tail;

/**
 * ReDoS families as a policy's `/redos/{x:regex}` target: [regex, a segment it matches, a hostile
 * segment, and for a refused regex the text the reported position must point at].
 */
const FAMILIES: ReadonlyArray<readonly [string, string, string, string | null]> = [
  ["(a+)+", "aaa", hostile("a"), null],
  ["(a|a)*", "aaa", hostile("a"), null],
  ["(a|ab)*c", "ababc", hostile("ab"), null],
  ["(\\w+\\s?)+$", "abc", hostile("a"), null],
  ["(.*a){12}", "a".repeat(12), hostile("a", "b"), null],
  ["((a+)+)\\2", "aa", hostile("a"), "\\2"],
  ["(\\w+)(-\\1)+$", "ab-ab", hostile("a"), "\\1"],
  ["(?=(a+))+b", "ab", hostile("a"), "(?="],
  ["(?<=a)(a+)+c", "aac", hostile("a"), "(?<="],
];

let demo: RunningDemo;
let base = "";
let admin: Browser;
let csrf = "";

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  base = demo.base;
  admin = new Browser(base);
  const loginCsrf = await admin.csrfFrom("/login");
  const login = await admin.postForm("/login", { username: "admin", password: "admin", _csrf: loginCsrf });
  expect(login.status).toBe(302);
  csrf = await admin.csrfFrom("/");
});
afterAll(() => demo.close());

/** Saves a policy for `GET /redos/{x:<regex>}` that lets only signed-in callers through. */
function savePolicy(regex: string): Promise<Response> {
  return admin.postJson(
    "/admin/api/policies",
    {
      name: `redos ${regex}`,
      effect: "ALLOW",
      targets: [{ targetType: "URL", targetIdentifier: `/redos/{x:${regex}}`, httpMethod: "GET" }],
      rules: [{ name: "signed in", conditions: [{ expression: "isAuthenticated()" }] }],
    },
    { "x-csrf-token": csrf },
  );
}

async function timedGet(path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  // JSON: an anonymous page request would be shown the sign-in page (200) instead of a 401.
  const res = await fetch(base + path, { headers: { accept: "application/json" } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

describe("a policy target's {var:regex} cannot stall the server (admin API, anonymous requests)", () => {
  it.each(FAMILIES)("%s", async (regex, sample, segment, refusedAt) => {
    const saved = await savePolicy(regex);
    const body = (await saved.json()) as Record<string, unknown>;
    if (refusedAt !== null) {
      const identifier = `/redos/{x:${regex}}`;
      expect(saved.status).toBe(400);
      expect(body).toMatchObject({
        code: "VALIDATION_FAILED",
        issues: [
          {
            path: "targets.0.targetIdentifier",
            position: identifier.indexOf(refusedAt),
            reason: expect.stringContaining("not supported"),
          },
        ],
      });
      return;
    }
    expect(saved.status).toBe(201);
    try {
      // The policy is live: an anonymous caller is asked to sign in on a matching path...
      expect((await timedGet(`/redos/${sample}`)).status).toBe(401);
      // ...and the hostile path, which it does not match, is answered at once like any other.
      const unmatched = (await timedGet("/redos/-")).status;
      expect(unmatched).not.toBe(401);
      const answer = await timedGet(`/redos/${segment}`);
      expect(answer.status).toBe(unmatched);
      expect(answer.ms).toBeLessThan(BUDGET_MS);
      expect((await timedGet("/health")).status).toBe(200);
    } finally {
      await admin.fetch(`/admin/api/policies/${body.id}`, {
        method: "DELETE",
        headers: { "x-csrf-token": csrf },
      });
    }
  });

  it("a 10,000-character hostile segment is turned away before any matcher, quickly and not with a 500", async () => {
    const saved = await savePolicy("(a+)+");
    const { id } = (await saved.json()) as { id: string };
    try {
      const answer = await timedGet(`/redos/${"a".repeat(10_000)}%21`);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.ms).toBeLessThan(BUDGET_MS);
    } finally {
      await admin.fetch(`/admin/api/policies/${id}`, { method: "DELETE", headers: { "x-csrf-token": csrf } });
    }
  });
});
