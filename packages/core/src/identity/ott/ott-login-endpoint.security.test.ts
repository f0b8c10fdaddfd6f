import { describe, expect, it } from "vitest";
import { observable, ottFixture } from "./ott.fixture.js";

describe("OttLoginEndpoint: single use under concurrency", () => {
  it("signs in exactly one of two concurrent submissions of one token (same address)", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    const answers = await Promise.all([
      f.send("POST", "/login/ott", { json: { token } }),
      f.send("POST", "/login/ott", { json: { token } }),
    ]);
    expect(answers.map((a) => a.response.status).sort()).toEqual([200, 401]);
    expect(f.repository.saved).toHaveLength(1);
  });

  it("signs in exactly one of many concurrent submissions from different addresses", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        f.send("POST", "/login/ott", { json: { token }, ip: `192.0.2.${i}` }),
      ),
    );
    expect(answers.filter((a) => a.response.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.response.status === 401)).toHaveLength(9);
    expect(f.repository.saved).toHaveLength(1);
  });
});

describe("OttLoginEndpoint: hostile input", () => {
  const hostile: [string, { json?: unknown; raw?: { contentType: string; body: string } }, number, string][] =
    [
      ["a number", { json: { token: 12345 } }, 400, "VALIDATION_FAILED"],
      ["an array", { json: { token: ["x"] } }, 400, "VALIDATION_FAILED"],
      ["an operator object", { json: { token: { $ne: null } } }, 400, "VALIDATION_FAILED"],
      ["null", { json: { token: null } }, 400, "VALIDATION_FAILED"],
      ["no token", { json: { username: "alice" } }, 400, "VALIDATION_FAILED"],
      ["an empty token", { json: { token: "" } }, 400, "VALIDATION_FAILED"],
      ["a 10 KB token", { json: { token: "A".repeat(10_240) } }, 400, "VALIDATION_FAILED"],
      [
        "a non-string username",
        { json: { token: "A".repeat(43), username: { $gt: "" } } },
        400,
        "VALIDATION_FAILED",
      ],
      [
        "a 257-character username",
        { json: { token: "A".repeat(43), username: "u".repeat(257) } },
        400,
        "VALIDATION_FAILED",
      ],
      [
        "malformed JSON",
        { raw: { contentType: "application/json", body: '{"token":' } },
        400,
        "MALFORMED_JSON",
      ],
      ["a JSON array", { raw: { contentType: "application/json", body: "[]" } }, 400, "MALFORMED_BODY"],
      [
        "deep nesting",
        { raw: { contentType: "application/json", body: `{"token":${"[".repeat(40)}${"]".repeat(40)}}` } },
        400,
        "MALFORMED_BODY",
      ],
      ["text/plain", { raw: { contentType: "text/plain", body: "token=x" } }, 415, "UNSUPPORTED_MEDIA_TYPE"],
    ];

  for (const [name, init, status, code] of hostile) {
    it(`answers ${name} with ${status} ${code}, consuming and counting nothing`, async () => {
      const f = await ottFixture({ throttle: { maxFailuresPerAccountAndIp: 1, maxFailuresPerIp: 1 } });
      const token = await f.tokenFor("alice");
      const exchange = await f.send("POST", "/login/ott", {
        ...init,
        headers: { accept: "application/json" },
      });
      expect(observable(exchange)).toMatchObject({ status, body: { success: false, code } });
      expect(f.tokenService.size).toBe(1);
      // Nothing was counted either: with a budget of one failure, the real token still works.
      expect((await f.send("POST", "/login/ott", { json: { token } })).response.status).toBe(200);
    });
  }

  it("never treats an operator object as a username match", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    const exchange = await f.send("POST", "/login/ott", { json: { token, username: { $ne: null } } });
    expect(exchange.response.status).toBe(400);
    expect((await f.send("POST", "/login/ott", { json: { token } })).response.status).toBe(200);
  });

  it("refuses another user's token when the username is given", async () => {
    const f = await ottFixture();
    await f.users.create({ username: "mallory" });
    const victims = await f.tokenFor("alice");
    const answer = await f.send("POST", "/login/ott", { json: { token: victims, username: "mallory" } });
    expect(observable(answer)).toMatchObject({ status: 401, body: { code: "INVALID_TOKEN" } });
    expect(f.repository.saved).toEqual([]);
  });

  it("answers too many concurrent submissions from one address with 429 at once", async () => {
    const f = await ottFixture({ override: { maxPendingAttemptsPerAddress: 2 } });
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        f.send("POST", "/login/ott", { json: { token: `${"F".repeat(42)}${i}` } }),
      ),
    );
    expect(answers.map((a) => a.response.status).sort()).toEqual([401, 401, 429, 429]);
  });
});

describe("Magic link: GET never consumes", () => {
  it("shows the page for the link as often as it is opened, and a later POST still signs in", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    const link = f.delivery.messages[0]!.link;
    const path = link.slice("http://localhost:8080".length);
    for (let i = 0; i < 3; i++) {
      const page = await f.send("GET", path);
      expect(page.response.status).toBe(200);
      expect(page.response.body).toContain(`value="${token}"`);
    }
    await f.send("HEAD", path);
    expect(f.tokenService.size).toBe(1);
    expect(f.repository.saved).toEqual([]);
    expect((await f.send("POST", "/login/ott", { form: { token, _csrf: "x" } })).response.status).toBe(302);
    expect(f.repository.saved).toHaveLength(1);
  });
});
