import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  codeAfter,
  type IdentityTestServer,
  me,
  newOutboxFile,
  outbox,
  primaryForm,
  startAdminMfa,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

/** The per-flow code limit (MAX_CODES_PER_MFA_SESSION): the automatic first code plus four more. */
const LIMIT = 5;

/** Lets deliveries scheduled after the last answer reach the outbox. */
const settle = () => new Promise((r) => setTimeout(r, 150));

describe("MFA: one code budget per flow, whichever path sends (issue #12 item 7)", () => {
  let s: IdentityTestServer;
  const file = newOutboxFile();
  beforeAll(async () => {
    s = await startMfaServer({ outbox: file });
  });
  afterAll(() => s.close());

  /** Starts admin's flow (one code sent) and returns a counter of codes delivered since. */
  async function flow() {
    await settle();
    const started = await startAdminMfa(s, file);
    const before = outbox(file).length;
    const headers = { "x-csrf-token": started.csrf };
    return {
      ...started,
      select: () => started.b.postJson("/mfa/select-factor", { factorType: "OTT" }, headers),
      resend: () => started.b.postJson("/mfa/ott/generate-code", {}, headers),
      /** Codes delivered in this flow, the automatic first one included. */
      sent: async () => {
        await settle();
        return 1 + outbox(file).length - before;
      },
    };
  }

  it("select-factor x10 sends at most 5 codes; the rest answer 429 and the last code still works", async () => {
    const f = await flow();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await f.select()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
    expect(await f.sent()).toBe(LIMIT);
    const over = await f.select();
    expect(await over.json()).toMatchObject({ success: false, code: "TOO_MANY_ATTEMPTS" });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // A refused selection did not disturb the running challenge: the last delivered code signs in.
    const last = outbox(file).at(-1)!.token;
    expect((await verify(f.b, f.csrf, last)).status).toBe(200);
    expect((await me(f.b)).body).toMatchObject({ username: "admin", method: "mfa" });
  });

  it("generate-code x10 sends at most 5 codes", async () => {
    const f = await flow();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await f.resend()).status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(LIMIT - 1);
    expect(statuses.slice(LIMIT - 1).every((x) => x === 429)).toBe(true);
    expect(await f.sent()).toBe(LIMIT);
  });

  it("select-factor and generate-code share one budget", async () => {
    const f = await flow();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await f.select()).status);
      statuses.push((await f.resend()).status);
    }
    expect(statuses.filter((x) => x === 200)).toHaveLength(LIMIT - 1);
    expect(statuses.filter((x) => x === 429)).toHaveLength(10 - (LIMIT - 1));
    expect(await f.sent()).toBe(LIMIT);
  });

  it("parallel requests (Promise.all) never exceed the budget", async () => {
    const f = await flow();
    const burst = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? f.select() : f.resend())),
    );
    // Losers of the compare-and-set answer 409 CONFLICT; no request fails with a 5xx.
    for (const res of burst) expect([200, 409, 429]).toContain(res.status);
    expect(await f.sent()).toBeLessThanOrEqual(LIMIT);
    // Draining what is left, one request at a time, ends at exactly the limit.
    for (let i = 0; i < 10; i++) await f.resend();
    expect(await f.sent()).toBe(LIMIT);
    const second = await Promise.all(Array.from({ length: 8 }, () => f.select()));
    expect(second.map((r) => r.status)).toEqual(Array(8).fill(429));
    expect(await f.sent()).toBe(LIMIT);
  });

  it("page paths (browser form posts) share the budget and go back to the flow's pages", async () => {
    const b = new Browser(s.url);
    const before = outbox(file).length;
    await codeAfter(file, "admin", () => primaryForm(b, "admin", "admin"));
    const html = await (await b.fetch("/mfa/challenge/ott")).text();
    const csrf = /<meta name="_csrf" content="([^"]+)">/.exec(html)?.[1];
    expect(csrf).toBeDefined();
    const answers: Response[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await b.postForm("/mfa/select-factor", { factorType: "OTT", _csrf: csrf! }));
      answers.push(await b.postForm("/mfa/ott/generate-code", { _csrf: csrf! }));
    }
    for (const res of answers) expect(res.status).toBe(302);
    const locations = answers.map((r) => r.headers.get("location"));
    expect(locations.filter((l) => l === "/mfa/challenge/ott")).toHaveLength(LIMIT - 1);
    expect(locations.filter((l) => l === "/mfa/select-factor?error")).toHaveLength(8 - (LIMIT - 1));
    await settle();
    expect(outbox(file).length - before).toBe(LIMIT);
  });
});
