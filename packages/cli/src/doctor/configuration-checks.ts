import { createPrivateKey } from "node:crypto";
import type { PlatformProperties } from "@keyward/core";
import type { DoctorFinding, FindingSeverity } from "./doctor-finding.js";

/** What the configuration checks judge. */
export interface ConfigurationFacts {
  properties: PlatformProperties;
  /** True when the keys and data are kept in a durable store (MongoDB). */
  durable: boolean;
  /** Production: what would only be a warning in development is an error. */
  production: boolean;
}

const MIN_SECRET_BYTES = 32;

/**
 * Keys present and strong, the public URL set (and https), trusted proxies set behind a TLS proxy, an
 * issuer the RFC 8414 metadata can name. Reads property values to judge them; a finding names the
 * property, never its value.
 */
export function configurationFindings(facts: ConfigurationFacts): DoctorFinding[] {
  const value = (key: string) => text(facts.properties.list().find((p) => p.key === key)?.value);
  const prodError: FindingSeverity = facts.production ? "error" : "warning";
  return [
    ...keyEncryptionKeyFindings(value("platform.keys.encryption-key"), facts.durable),
    ...jwtKeyFindings(value, facts.durable, prodError),
    ...secretFindings("platform.auth.device-cookie.secret", value("platform.auth.device-cookie.secret"), {
      durable: facts.durable,
      severity: prodError,
      code: "DEVICE_COOKIE_KEY_GENERATED_AT_START",
      what: "device cookies (adaptive MFA) are refused after a restart and by other instances",
    }),
    ...urlFindings(
      value("platform.server.public-url"),
      value("platform.http.trusted-proxies"),
      facts.production,
    ),
    ...issuerFindings(value("platform.auth.jwt.issuer")),
  ];
}

function keyEncryptionKeyFindings(kek: string, durable: boolean): DoctorFinding[] {
  if (kek === "")
    return durable
      ? [
          finding(
            "KEY_ENCRYPTION_KEY_MISSING",
            "error",
            "The store is durable but platform.keys.encryption-key is not set: the start refuses",
            "platform keys generate key-encryption-key",
          ),
        ]
      : [];
  return bytesOf(kek) < MIN_SECRET_BYTES
    ? [
        finding(
          "KEY_ENCRYPTION_KEY_WEAK",
          "error",
          `platform.keys.encryption-key has fewer than ${MIN_SECRET_BYTES} bytes`,
          "platform keys generate key-encryption-key",
        ),
      ]
    : [];
}

function jwtKeyFindings(
  value: (key: string) => string,
  durable: boolean,
  severity: FindingSeverity,
): DoctorFinding[] {
  const algorithm = value("platform.auth.jwt.algorithm") || "ES256";
  if (algorithm === "HS256")
    return secretFindings("platform.auth.jwt.secret", value("platform.auth.jwt.secret"), {
      durable,
      severity,
      code: "JWT_KEY_GENERATED_AT_START",
      what: "access and refresh tokens die at restart and are refused by other instances",
    });
  const pem = value("platform.auth.jwt.private-key").replace(/\\n/g, "\n").trim();
  if (pem === "")
    return durable
      ? []
      : [
          finding(
            "JWT_KEY_GENERATED_AT_START",
            severity,
            "No JWT signing key is configured and the store is in memory: a key is generated at each start, so tokens die at restart and are refused by other instances",
            "use MongoDB (keys kept in the store) or set platform.auth.jwt.private-key (platform keys generate jwt)",
          ),
        ];
  try {
    const type = createPrivateKey(pem).asymmetricKeyType;
    if (type === (algorithm === "ES256" ? "ec" : "ed25519")) return [];
  } catch {
    // Reported below, without the key.
  }
  return [
    finding(
      "JWT_PRIVATE_KEY_INVALID",
      "error",
      `platform.auth.jwt.private-key is not a PKCS#8 PEM key for ${algorithm}`,
      `platform keys generate jwt --algorithm ${algorithm}`,
    ),
  ];
}

function secretFindings(
  property: string,
  secret: string,
  o: { durable: boolean; severity: FindingSeverity; code: string; what: string },
): DoctorFinding[] {
  if (secret === "")
    return o.durable
      ? []
      : [
          finding(
            o.code,
            o.severity,
            `${property} is not set and the store is in memory: a key is generated at each start, so ${o.what}`,
            `use MongoDB or set ${property}`,
          ),
        ];
  return bytesOf(secret) < MIN_SECRET_BYTES
    ? [
        finding(
          "SECRET_TOO_SHORT",
          "error",
          `${property} has fewer than ${MIN_SECRET_BYTES} bytes`,
          `generate one: platform keys generate`,
        ),
      ]
    : [];
}

function urlFindings(publicUrl: string, trustedProxies: string, production: boolean): DoctorFinding[] {
  if (publicUrl === "")
    return [
      finding(
        "PUBLIC_URL_MISSING",
        production ? "error" : "info",
        "platform.server.public-url is not set: links and the JWKS address use http://localhost:<port>",
        "set platform.server.public-url to the address users reach",
      ),
    ];
  const url = new URL(publicUrl);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  const out: DoctorFinding[] = [];
  if (url.protocol !== "https:" && !local)
    out.push(
      finding(
        "PUBLIC_URL_NOT_HTTPS",
        production ? "error" : "warning",
        `platform.server.public-url is ${url.protocol}//${url.host}: sign-in and tokens would travel in clear`,
        "serve it over https (a TLS-terminating proxy)",
      ),
    );
  // The server speaks plain HTTP: an https public URL means a proxy terminates TLS in front of it.
  if (url.protocol === "https:" && trustedProxies === "")
    out.push(
      finding(
        "TRUSTED_PROXIES_MISSING",
        production ? "error" : "warning",
        "The public URL is https, so a proxy is in front, but platform.http.trusted-proxies is empty: every client looks like the proxy (throttling, audit, zero trust)",
        "set platform.http.trusted-proxies to the proxies' addresses or a hop count",
      ),
    );
  return out;
}

function issuerFindings(issuer: string): DoctorFinding[] {
  return /^https:\/\/[^?#]+$/.test(issuer)
    ? []
    : [
        finding(
          "JWT_ISSUER_NOT_URL",
          "warning",
          "platform.auth.jwt.issuer is not an https URL: RFC 8414 discovery expects the issuer to be one",
          "set it to the public URL, e.g. https://id.example.com (tokens issued before are then refused)",
        ),
      ];
}

function finding(code: string, severity: FindingSeverity, message: string, fix?: string): DoctorFinding {
  return fix === undefined ? { code, severity, message } : { code, severity, message, fix };
}

function text(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (Array.isArray(value)) return value.join(",");
  return value === undefined || value === null ? "" : String(value);
}

function bytesOf(secret: string): number {
  return secret.startsWith("base64url:")
    ? Buffer.from(secret.slice("base64url:".length), "base64url").length
    : Buffer.byteLength(secret, "utf8");
}
