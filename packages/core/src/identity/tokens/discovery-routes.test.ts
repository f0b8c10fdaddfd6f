import { generateKeyPairSync } from "node:crypto";
import { calculateJwkThumbprint, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing, keySealerFor } from "../../kernel/keys/key-ring.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Route } from "../../web/route-table.js";
import { discoveryRoutes, JWKS_PATH, OAUTH_METADATA_PATH, publishedJwks } from "./discovery-routes.js";
import { type JwtKeys, loadJwtKeys } from "./jwt-keys.js";
import { StoredJwtKeys } from "./stored-jwt-keys.js";
import { RecordingLogger } from "./token-service.test-support.js";

/** What the two routes answer, loosely typed for assertions. */
type Published = { keys: JWK[] } & Record<string, unknown>;

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];
const MINUTE = 60_000;

async function answer(
  route: Route | undefined,
): Promise<{ status: number; headers: Map<string, string>; body: Published }> {
  const exchange = new HttpExchange({
    method: "GET",
    url: route!.path,
    headers: {},
    remoteAddress: "127.0.0.1",
  });
  await route!.handler(exchange, {});
  return {
    status: exchange.response.status,
    headers: exchange.response.headers,
    body: exchange.response.body as Published,
  };
}

function routesOf(keys: JwtKeys) {
  const routes = discoveryRoutes({
    keys,
    issuer: "https://id.example.test",
    publicUrl: () => "https://id.example.test/",
  });
  return {
    jwks: routes.find((r) => r.path === JWKS_PATH),
    metadata: routes.find((r) => r.path === OAUTH_METADATA_PATH),
  };
}

describe("discovery routes", () => {
  it("publish a configured private key's public half, with kid, alg and use, and no private member", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const keys = await loadJwtKeys({ algorithm: "ES256", privateKeyPem, logger: new RecordingLogger() });
    const { jwks, metadata } = routesOf(keys);
    const res = await answer(jwks);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const [jwk] = res.body.keys as JWK[];
    expect(res.body.keys).toHaveLength(1);
    const publicHalf = privateKey.export({ format: "jwk" });
    expect(jwk).toEqual({
      kty: "EC",
      crv: "P-256",
      x: publicHalf.x,
      y: publicHalf.y,
      kid: keys.kid,
      alg: "ES256",
      use: "sig",
    });
    expect(jwk!.kid).toBe(await calculateJwkThumbprint(jwk!, "sha256"));
    for (const member of PRIVATE_MEMBERS) expect(JSON.stringify(res.body)).not.toContain(`"${member}"`);

    const meta = await answer(metadata);
    expect(meta.body).toEqual({
      issuer: "https://id.example.test",
      jwks_uri: "https://id.example.test/.well-known/jwks.json",
      response_types_supported: [],
      grant_types_supported: [],
      access_token_signing_alg_values_supported: ["ES256"],
    });
  });

  it("never lets a private member through, even from a key set that carries one", async () => {
    const leaky: JwtKeys = {
      ...(await loadJwtKeys({ algorithm: "EdDSA", logger: new RecordingLogger() })),
      publicJwks: async () => [
        { kty: "OKP", crv: "Ed25519", x: "AA", d: "SECRET", k: "SECRET", kid: "a", alg: "EdDSA", use: "sig" },
      ],
    };
    const published = await publishedJwks(leaky);
    expect(published).toEqual([{ kty: "OKP", crv: "Ed25519", x: "AA", kid: "a", alg: "EdDSA", use: "sig" }]);
  });

  it("HS256 publishes no key: no JWK set route, metadata without jwks_uri", async () => {
    const keys = await loadJwtKeys({
      algorithm: "HS256",
      secret: "s".repeat(32),
      logger: new RecordingLogger(),
    });
    const { jwks, metadata } = routesOf(keys);
    expect(jwks).toBeUndefined();
    const meta = await answer(metadata);
    expect(meta.body).not.toHaveProperty("jwks_uri");
    expect(meta.body.access_token_signing_alg_values_supported).toEqual(["HS256"]);
    expect(JSON.stringify(meta.body)).not.toContain("ssssssss");
  });

  it("follows the key ring: a rotated-out key stays until its last token expired, then leaves", async () => {
    const clock = new ManualClock();
    const store = new InMemoryKeyStore();
    const ring = new KeyRing({ store, sealer: keySealerFor(store, ""), now: () => clock.now() });
    const ttl = 15 * MINUTE + 30_000;
    const keys = await StoredJwtKeys.open({
      ring,
      algorithm: "ES256",
      now: () => clock.now(),
      rotationMs: MINUTE,
      tokenLifetimeMs: ttl,
    });
    const oldKid = keys.kid;
    const { jwks } = routesOf(keys);
    expect((await answer(jwks)).body.keys.map((k) => k.kid)).toEqual([oldKid]);
    clock.advance(MINUTE);
    await keys.beforeSign();
    expect(keys.kid).not.toBe(oldKid);
    expect((await answer(jwks)).body.keys.map((k) => k.kid)).toEqual([keys.kid, oldKid]);
    clock.advance(ttl + MINUTE - 1); // verifyUntil: rotation + token lifetime + the instances' reload delay
    expect((await answer(jwks)).body.keys).toHaveLength(2);
    clock.advance(1);
    expect((await answer(jwks)).body.keys.map((k) => k.kid)).toEqual([keys.kid]);
  });

  it("publishes a key another instance rotated in within seconds (a fresh read of the ring)", async () => {
    const clock = new ManualClock();
    const store = new InMemoryKeyStore();
    const ring = new KeyRing({ store, sealer: keySealerFor(store, ""), now: () => clock.now() });
    const open = () =>
      StoredJwtKeys.open({
        ring,
        algorithm: "ES256",
        now: () => clock.now(),
        rotationMs: MINUTE,
        tokenLifetimeMs: MINUTE,
      });
    const a = await open();
    const b = await open();
    clock.advance(MINUTE);
    await a.beforeSign();
    expect(a.kid).not.toBe(b.kid);
    clock.advance(5_000);
    expect((await publishedJwks(b)).map((k) => k.kid)).toContain(a.kid);
  });
});
