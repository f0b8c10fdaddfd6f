import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "./identity-test-server.js";

/** The outbox lines written so far. */
function outbox(
  file: string,
): { username: string; token: string; link: string; to: string; channel: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Waits for the n-th outbox line (delivery runs just after the answer). */
async function waitForLine(file: string, n: number): Promise<ReturnType<typeof outbox>[number]> {
  for (let i = 0; i < 100; i++) {
    const lines = outbox(file);
    if (lines.length >= n) return lines[n - 1]!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no outbox line ${n} in ${file}`);
}

describe("one-time-token login (the demo's OTT chain)", () => {
  let s: IdentityTestServer;
  const file = join(mkdtempSync(join(tmpdir(), "outbox-")), "outbox.jsonl");
  beforeAll(async () => {
    s = await startIdentityServer({
      security: demoSecurity,
      properties: { "platform.auth.ott.outbox-file": file },
    });
  });
  afterAll(() => s.close());

  async function requestLink(b: Browser, username: string): Promise<Response> {
    const csrf = await b.csrfFrom("/login/ott");
    return b.postForm("/ott/generate", { username, _csrf: csrf });
  }

  it("sends a magic link to the outbox; the link's page does not consume it; POST signs in once", async () => {
    const b = new Browser(s.url);
    const sent = await requestLink(b, "user");
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/login/ott?sent");
    const line = await waitForLine(file, 1);
    expect(line).toMatchObject({ username: "user", to: "user", channel: "email" });
    expect(line.link).toBe(`${s.url}/login/ott?token=${line.token}`);
    for (let i = 0; i < 2; i++) {
      const page = await b.fetch(`/login/ott?token=${line.token}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`value="${line.token}"`);
    }
    const csrf = await b.csrfFrom("/login/ott");
    const ok = await b.postForm("/login/ott", { token: line.token, _csrf: csrf });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/");
    expect(await (await b.fetch("/api/me")).json()).toMatchObject({
      username: "user",
      method: "ott",
      factors: ["otp"],
    });
    const csrf2 = await b.csrfFrom("/login/ott");
    const again = await b.postForm(
      "/login/ott",
      { token: line.token, _csrf: csrf2 },
      { accept: "application/json" },
    );
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ success: false, failureType: "INVALID_TOKEN" });
  });

  it("lets exactly one of two concurrent submissions of one token succeed", async () => {
    const before = outbox(file).length;
    await requestLink(new Browser(s.url), "admin");
    const { token } = await waitForLine(file, before + 1);
    const a = new Browser(s.url);
    const b = new Browser(s.url);
    const [ca, cb] = [await a.csrfFrom("/login/ott"), await b.csrfFrom("/login/ott")];
    const results = await Promise.all([
      a.postJson("/login/ott", { token }, { "x-csrf-token": ca }),
      b.postJson("/login/ott", { token }, { "x-csrf-token": cb }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("answers an unknown user exactly like a known one, and sends nothing", async () => {
    const before = outbox(file).length;
    const known = await requestLink(new Browser(s.url), "user");
    const unknown = await requestLink(new Browser(s.url), "nobody-here");
    expect(unknown.status).toBe(known.status);
    expect(unknown.headers.get("location")).toBe(known.headers.get("location"));
    expect(await unknown.text()).toBe(await known.text());
    await waitForLine(file, before + 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(
      outbox(file)
        .slice(before)
        .map((l) => l.username),
    ).toEqual(["user"]);
  });

  it("requires the CSRF token on generation and on sign-in", async () => {
    const b = new Browser(s.url);
    const res = await b.postJson("/ott/generate", { username: "user" });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "CSRF_TOKEN_INVALID" });
  });
});
