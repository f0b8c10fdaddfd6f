import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSecurity, type IdentityTestServer, startIdentityServer } from "./identity-test-server.js";
import { decodeJwt, restLogin } from "./security/security-test-support.js";

// Issue 27: another service verifies our access tokens with nothing but our JWKS, from its own
// process (jose's createRemoteJWKSet + jwtVerify), across a key rotation; once the old key's last
// token has expired, the old key leaves the set.

const ISSUER = "https://id.example.test";
const AUDIENCE = "orders-api";
const MINUTE = 60_000;

/** Verifies each token in a fresh `node` process (it resolves jose from the core package). */
const VERIFIER = `
const { createRemoteJWKSet, jwtVerify } = await import("jose");
const [jwksUrl, issuer, audience, checks] = process.argv.slice(1);
const jwks = createRemoteJWKSet(new URL(jwksUrl));
const out = [];
for (const { token, at } of JSON.parse(checks)) {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer, audience, currentDate: new Date(at) });
    out.push({ ok: true, sub: payload.sub, kid: protectedHeader.kid });
  } catch (e) {
    out.push({ ok: false, code: e.code ?? e.name });
  }
}
process.stdout.write(JSON.stringify(out));
`;

type Verdict = { ok: true; sub: string; kid: string } | { ok: false; code: string };

async function verifyElsewhere(base: string, checks: { token: string; at: number }[]): Promise<Verdict[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      VERIFIER,
      `${base}/.well-known/jwks.json`,
      ISSUER,
      AUDIENCE,
      JSON.stringify(checks),
    ],
    { cwd: resolve(import.meta.dirname, "../../packages/core"), timeout: 20_000 },
  );
  return JSON.parse(stdout) as Verdict[];
}

describe("our access tokens, verified by another process through the JWKS", () => {
  const clock = new ManualClock(Date.now());
  let server: IdentityTestServer;

  beforeAll(async () => {
    server = await startIdentityServer({
      security: demoSecurity,
      properties: {
        "platform.auth.jwt.issuer": ISSUER,
        "platform.auth.jwt.audience": AUDIENCE,
        "platform.auth.jwt.key-rotation": "PT1M",
      },
      register: (c) => c.registerInstance(Clock, clock),
    });
  });
  afterAll(() => server.close());

  const kids = async () => {
    const res = await fetch(`${server.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
  };

  it("verifies before and after a rotation, and drops the old key once its last token expired", async () => {
    const first = (await restLogin(server.url)).accessToken;
    const firstAt = clock.now();
    const oldKid = decodeJwt(first).header.kid as string;
    expect(await verifyElsewhere(server.url, [{ token: first, at: firstAt }])).toEqual([
      { ok: true, sub: expect.any(String), kid: oldKid },
    ]);

    clock.advance(MINUTE + 1000); // the key is older than platform.auth.jwt.key-rotation
    const second = (await restLogin(server.url)).accessToken;
    const secondAt = clock.now();
    const newKid = decodeJwt(second).header.kid as string;
    expect(newKid).not.toBe(oldKid);
    expect((await kids()).sort()).toEqual([oldKid, newKid].sort());
    const both = await verifyElsewhere(server.url, [
      { token: first, at: firstAt + MINUTE }, // still inside its 15 minutes
      { token: second, at: secondAt },
    ]);
    expect(both).toEqual([
      { ok: true, sub: expect.any(String), kid: oldKid },
      { ok: true, sub: expect.any(String), kid: newKid },
    ]);

    // Past the old token's expiry (15 min), the clock skew and the instances' reload delay.
    clock.advance(15 * MINUTE + 30_000 + MINUTE + 1000);
    expect(await kids()).toEqual([newKid]);
    const after = await verifyElsewhere(server.url, [
      { token: first, at: firstAt }, // even judged at its own time: no key verifies it any more
      { token: second, at: secondAt + MINUTE },
    ]);
    expect(after).toEqual([
      { ok: false, code: "ERR_JWKS_NO_MATCHING_KEY" },
      { ok: true, sub: expect.any(String), kid: newKid },
    ]);
  }, 30_000);

  it("serves the metadata; openid-configuration stays 404 (we are not an OpenID provider)", async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`, {
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.issuer).toBe(ISSUER);
    expect(body.jwks_uri).toBe(
      `${new URL(server.url).protocol}//localhost:${new URL(server.url).port}/.well-known/jwks.json`,
    );
    expect(JSON.stringify(body)).not.toContain("evil");
    expect((await fetch(`${server.url}/.well-known/openid-configuration`)).status).toBe(404);
  });

  it("answers malformed, oversized and hostile requests with a stable code, never a 500", async () => {
    // A POST meets the session chain's CSRF check first (403), as on every other path; with a JSON
    // accept and no cookie it is still refused with a stable code.
    const post = await fetch(`${server.url}/.well-known/jwks.json`, { method: "POST", body: "{}" });
    expect([403, 405]).toContain(post.status);
    expect((await post.json()) as { code: string }).toMatchObject({
      code: expect.stringMatching(/^[A-Z_]+$/),
    });
    const long = await fetch(`${server.url}/.well-known/jwks.json?kid=${"a".repeat(6000)}`);
    expect([200, 414, 431]).toContain(long.status);
    const hostile = await fetch(`${server.url}/.well-known/jwks.json?kid=%00%ff<script>`, {
      headers: { authorization: "Bearer not-a-token" },
    });
    expect(hostile.status).toBeLessThan(500);
    const traversal = await fetch(`${server.url}/.well-known/%2e%2e/jwks.json`);
    expect(traversal.status).toBeLessThan(500);
    expect(traversal.status).not.toBe(200);
  });
});
