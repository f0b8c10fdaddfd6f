import type { Authentication } from "@keyward/core";
import { PlatformError } from "@keyward/core/errors";
import {
  type JwtKeys,
  CsrfTokenRepository,
  JwtKeySource,
  Logger,
  PrimaryAuthenticator,
  UserRepository,
} from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfiguredJwtKeySource } from "../../packages/core/src/identity/tokens/configured-jwt-key-source.js";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "./identity-test-server.js";

/** A host's primary authenticator: every known user signs in with one shared password, nothing else. */
class SharedPasswordAuthenticator implements PrimaryAuthenticator {
  calls = 0;

  constructor(private readonly users: UserRepository) {}

  async authenticate(input: {
    username: unknown;
    password: unknown;
    method: "form" | "rest";
  }): Promise<Authentication> {
    this.calls++;
    const account =
      typeof input.username === "string" ? await this.users.findByUsername(input.username) : undefined;
    if (!account || input.password !== "host-secret")
      throw new PlatformError("BAD_CREDENTIALS", "Bad credentials");
    const at = Date.now();
    return {
      userId: account.id,
      username: account.username,
      authorities: account.authorities,
      method: input.method,
      authenticatedAt: at,
      factors: [{ type: "pwd", at }],
    };
  }
}

/** A host's key source (a KMS in production): one HS256 secret, counting how often it is read. */
class CountingKeySource implements JwtKeySource {
  loads = 0;
  keys: JwtKeys | undefined;

  constructor(private readonly logger: Logger) {}

  async load(): Promise<JwtKeys> {
    this.loads++;
    this.keys = await new ConfiguredJwtKeySource({
      algorithm: "HS256",
      secret: "a-host-secret-of-at-least-32-bytes!",
      logger: this.logger,
    }).load();
    return this.keys;
  }
}

/** A host's CSRF repository with one fixed token (a test double: never do this in production). */
const fixedCsrf: CsrfTokenRepository = {
  load: async () => "host-csrf-token",
  loadOrCreate: async () => "host-csrf-token",
  rotate: async () => "host-csrf-token",
};

describe("identity ports a host replaces through their same-name tokens", () => {
  let s: IdentityTestServer;
  let authenticator: SharedPasswordAuthenticator | undefined;
  let keySource: CountingKeySource | undefined;
  beforeAll(async () => {
    s = await startIdentityServer({
      security: demoSecurity,
      register: (c) => {
        c.register(PrimaryAuthenticator, {
          useFactory: (r) => {
            authenticator ??= new SharedPasswordAuthenticator(r.resolve(UserRepository));
            return authenticator;
          },
        });
        c.register(JwtKeySource, {
          useFactory: (r) => {
            keySource ??= new CountingKeySource(r.resolve(Logger));
            return keySource;
          },
        });
        c.registerInstance(CsrfTokenRepository, fixedCsrf);
      },
    });
  });
  afterAll(() => s.close());

  it("signs in through the host's PrimaryAuthenticator, not the password default", async () => {
    const b = new Browser(s.url);
    expect((await b.postJson("/api/login", { username: "user", password: "password" })).status).toBe(401);
    const res = await b.postJson("/api/login", { username: "user", password: "host-secret" });
    expect(res.status).toBe(200);
    expect(authenticator?.calls).toBe(2);
  });

  it("signs access tokens with the keys of the host's JwtKeySource, read once at start", async () => {
    const b = new Browser(s.url);
    const res = await b.postJson("/api/login", { username: "admin", password: "host-secret" });
    const { accessToken } = (await res.json()) as { accessToken: string };
    const header: unknown = JSON.parse(Buffer.from(accessToken.split(".")[0]!, "base64url").toString());
    expect(header).toMatchObject({ alg: "HS256", kid: keySource?.keys?.kid });
    const auth = { authorization: `Bearer ${accessToken}` };
    expect(await (await b.fetch("/api/data", { headers: auth })).json()).toEqual({ user: "admin" });
    expect(keySource?.loads).toBe(1);
  });

  it("checks CSRF against the host's CsrfTokenRepository", async () => {
    const b = new Browser(s.url);
    expect(await b.csrfFrom("/login")).toBe("host-csrf-token");
    const refused = await b.postForm("/login", { username: "user", password: "host-secret", _csrf: "other" });
    expect(refused.status).toBe(403);
    const res = await b.postForm("/login", {
      username: "user",
      password: "host-secret",
      _csrf: "host-csrf-token",
    });
    expect(res.status).toBe(302);
  });
});
