import { describe, expect, it } from "vitest";
import { NullSecurityContextRepository } from "../context/security-context-repository.js";
import { ottFixture, request } from "./ott.fixture.js";

describe("createOttRoutes", () => {
  it("returns generate, submit page and login, in that order", async () => {
    const f = await ottFixture();
    expect(f.routes.map((x) => `${x.method} ${x.name}`)).toEqual([
      "POST identity.ott.generate",
      "GET identity.ott.submit-page",
      "HEAD identity.ott.submit-page",
      "POST identity.ott.login",
    ]);
  });

  it("leaves the page out when showSubmitPage is off: GET of the page URL falls through", async () => {
    const f = await ottFixture({ override: { showSubmitPage: false } });
    expect(f.routes.map((x) => x.name)).toEqual(["identity.ott.generate", "identity.ott.login"]);
    const { fellThrough } = await f.run(request("GET", "/login/ott"));
    expect(fellThrough).toBe(true);
  });

  it("wires every URL option into the whole flow", async () => {
    const f = await ottFixture({
      override: { generateUrl: "/m/request", submitPageUrl: "/m", loginProcessingUrl: "/m/verify" },
    });
    const page = await f.send("GET", "/m");
    expect(page.response.body).toContain('action="/m/verify"');
    expect(page.response.body).toContain('action="/m/request"');
    expect((await f.send("POST", "/m/request", { json: { username: "alice" } })).response.status).toBe(200);
    await f.handler.whenIdle();
    const token = f.delivery.messages[0]!.token;
    expect((await f.send("POST", "/m/verify", { json: { token } })).response.status).toBe(200);
  });

  it("passes csrfEnabled to the page", async () => {
    const f = await ottFixture({ override: { csrfEnabled: false } });
    expect((await f.send("GET", "/login/ott")).response.body).not.toContain("_csrf");
  });

  it("stores the authentication through the given repository", async () => {
    const f = await ottFixture({ override: { repository: new NullSecurityContextRepository() } });
    const token = await f.tokenFor("alice");
    expect((await f.send("POST", "/login/ott", { json: { token } })).response.status).toBe(200);
    expect(f.repository.saved).toEqual([]);
  });
});
