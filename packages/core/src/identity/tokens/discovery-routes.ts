import type { JWK } from "jose";
import { z } from "zod";
import type { RouteContract } from "../../web/route-contract.js";
import type { Route } from "../../web/route-table.js";
import type { JwtKeys } from "./jwt-keys.js";

/** Path of the JWK set (RFC 7517) of the access-token keys. */
export const JWKS_PATH = "/.well-known/jwks.json";

/** Path of the authorization-server metadata (RFC 8414), our one discovery document. */
export const OAUTH_METADATA_PATH = "/.well-known/oauth-authorization-server";

/** The members a published signing JWK may carry: the public key and its id, algorithm and use. */
const PUBLIC_JWK_MEMBERS = ["kty", "crv", "x", "y", "n", "e", "kid", "alg", "use"] as const;

/** What the discovery routes publish. */
export interface DiscoveryRoutesOptions {
  keys: JwtKeys;
  /** The `iss` of our access tokens, published as the metadata's `issuer`. */
  issuer: string;
  /** The public base URL (configured, or the local origin once listening); never the request's Host. */
  publicUrl: () => string;
}

/**
 * The JWK set of every public key that may still verify one of our access tokens (from the key
 * ring: a rotated-out key stays until its last token has expired), and the RFC 8414 metadata naming
 * the issuer, the JWK set and the signing algorithm. A platform signing with a shared secret (HS256)
 * has no public key: the JWK set route is not served (404) and the metadata has no `jwks_uri`.
 */
export function discoveryRoutes(o: DiscoveryRoutesOptions): Route[] {
  const asymmetric = o.keys.algorithm !== "HS256";
  const metadata: Route = {
    method: "GET",
    path: OAUTH_METADATA_PATH,
    name: "identity.oauth-metadata",
    description: "Authorization-server metadata (RFC 8414): issuer, JWK set, access-token signing algorithm",
    feature: "identity",
    access: "public",
    meta: { contract: METADATA_CONTRACT },
    handler: (exchange) => {
      exchange.response.headers.set("cache-control", "public, max-age=300");
      exchange.json(200, authorizationServerMetadata(o, asymmetric));
    },
  };
  if (!asymmetric) return [metadata];
  const jwks: Route = {
    method: "GET",
    path: JWKS_PATH,
    name: "identity.jwks",
    description: "The public keys that verify our access tokens (JWK set, RFC 7517), across key rotations",
    feature: "identity",
    access: "public",
    meta: { contract: JWKS_CONTRACT },
    handler: async (exchange) => {
      // Short: after a rotation, a consumer behind an HTTP cache learns the new key within a minute.
      exchange.response.headers.set("cache-control", "public, max-age=60");
      exchange.json(200, { keys: await publishedJwks(o.keys) });
    },
  };
  return [jwks, metadata];
}

/** The keys of `keys` as they are published: only public members, each key once. */
export async function publishedJwks(keys: JwtKeys): Promise<JWK[]> {
  const all = keys.publicJwks ? await keys.publicJwks() : [keys.publicJwk()];
  const seen = new Set<string>();
  const out: JWK[] = [];
  for (const jwk of all) {
    if (!jwk?.kid || seen.has(jwk.kid)) continue;
    seen.add(jwk.kid);
    out.push(publicMembers(jwk));
  }
  return out;
}

/** Only the whitelisted members: a private member (`d`, `p`, `q`, `dp`, `dq`, `qi`, `k`) never leaves. */
function publicMembers(jwk: JWK): JWK {
  const out: Record<string, unknown> = {};
  for (const member of PUBLIC_JWK_MEMBERS) if (jwk[member] !== undefined) out[member] = jwk[member];
  return out as JWK;
}

/**
 * Only what is true of us: no authorization endpoint, no RFC 6749 grant at a standard token endpoint
 * (our sign-in and refresh are JSON APIs), so `response_types_supported` and `grant_types_supported`
 * are empty rather than their defaults. The access-token algorithm has no registered member: it is
 * published as `access_token_signing_alg_values_supported`.
 */
function authorizationServerMetadata(
  o: DiscoveryRoutesOptions,
  asymmetric: boolean,
): Record<string, unknown> {
  const base = o.publicUrl().replace(/\/+$/, "");
  return {
    issuer: o.issuer,
    ...(asymmetric ? { jwks_uri: `${base}${JWKS_PATH}` } : {}),
    response_types_supported: [],
    grant_types_supported: [],
    access_token_signing_alg_values_supported: [o.keys.algorithm],
  };
}

/** The JWK set: public members only. */
const JWKS_CONTRACT = {
  responses: {
    200: {
      description: "The JWK set (RFC 7517) of every key that may still verify an access token",
      schema: z.object({
        keys: z.array(
          z.looseObject({
            kty: z.string(),
            kid: z.string(),
            alg: z.string().optional(),
            use: z.string().optional(),
          }),
        ),
      }),
    },
  },
} satisfies RouteContract;

/** The RFC 8414 metadata: what is true of us, nothing more. */
const METADATA_CONTRACT = {
  responses: {
    200: {
      description: "Authorization-server metadata (RFC 8414)",
      schema: z.looseObject({
        issuer: z.string(),
        jwks_uri: z.string().optional(),
        response_types_supported: z.array(z.string()),
      }),
    },
  },
} satisfies RouteContract;
