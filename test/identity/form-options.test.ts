import type { Authentication, AuthenticationFailureHandler } from "@keyward/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SecurityContextRepository } from "../../packages/core/src/identity/context/security-context-repository.js";
import { Browser, type IdentityTestServer, startIdentityServer } from "./identity-test-server.js";

/** A host repository: keeps the authentication under a header-named key, no session at all. */
class HeaderKeyRepository implements SecurityContextRepository {
  readonly name = "header-key";
  readonly saved = new Map<string, Authentication>();
  async load(ex: Parameters<SecurityContextRepository["load"]>[0]): Promise<Authentication | undefined> {
    return this.saved.get(ex.header("x-device") ?? "");
  }
  async save(ex: Parameters<SecurityContextRepository["save"]>[0], a: Authentication): Promise<void> {
    this.saved.set(ex.header("x-device") ?? "", a);
  }
  async clear(): Promise<void> {}
}

const teapot: AuthenticationFailureHandler = {
  onFailure: async (ex, error) => ex.json(418, { refused: error.code }),
};

describe("form and REST option rows over HTTP", () => {
  let s: IdentityTestServer;
  const repository = new HeaderKeyRepository();
  beforeAll(async () => {
    s = await startIdentityServer({
      security: (r) =>
        r
          .form((f) =>
            f
              .defaultSuccessUrl("/home", true)
              .failureUrl("/oops")
              .rawHttp((h) => h.securityMatcher("/login", "/csrf")),
          )
          .session()
          .rest((x) =>
            x
              .loginProcessingUrl("/device/login")
              .failureHandler(teapot)
              .securityContextRepository(repository)
              .csrf({ disable: true })
              .rawHttp((h) => h.securityMatcher("/device/**")),
          )
          .session()
          .build(),
    });
  });
  afterAll(() => s.close());

  it("defaultSuccessUrl(url, true) wins over a saved request; failureUrl receives failures", async () => {
    const b = new Browser(s.url);
    const { token } = (await (await b.fetch("/csrf")).json()) as { token: string };
    const failed = await b.postForm("/login", { username: "user", password: "nope", _csrf: token });
    expect(failed.headers.get("location")).toBe("/oops");
    const ok = await b.postForm("/login", { username: "user", password: "password", _csrf: token });
    expect(ok.headers.get("location")).toBe("/home");
  });

  it("uses the custom failure handler and the custom security context repository", async () => {
    const b = new Browser(s.url);
    const refused = await b.postJson(
      "/device/login",
      { username: "user", password: "nope" },
      { "x-device": "d1" },
    );
    expect(refused.status).toBe(418);
    expect(await refused.json()).toEqual({ refused: "BAD_CREDENTIALS" });
    const ok = await b.postJson(
      "/device/login",
      { username: "admin", password: "admin" },
      { "x-device": "d1" },
    );
    expect(ok.status).toBe(200);
    expect(repository.saved.get("d1")?.username).toBe("admin");
    expect(b.cookies.has("PLATFORM_SESSION")).toBe(false);
  });
});
