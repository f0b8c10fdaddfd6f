import { PasswordHasher, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, type RunningDemo, startDemo } from "../support/demo-server.js";
import { Browser } from "./identity-test-server.js";
import { outbox } from "./mfa/mfa-test-support.js";

const FORGOT = "/api/password/forgot";

// One demo: accounts with and without an address; "Forgot password" end to end through the outbox.
describe("Forgot password (POST /api/password/forgot)", () => {
  let demo: RunningDemo;
  const forgot = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${demo.base}${FORGOT}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const linesFor = (username: string) =>
    outbox(demo.outboxFile).filter((l) => l.channel === "password-forgot" && l.username === username);
  const settle = () => new Promise((r) => setTimeout(r, 60));
  const addUser = async (username: string, email?: string) => {
    const passwordHash = await demo.platform.resolve(PasswordHasher).hash(`${username}-password-1`);
    await demo.platform
      .resolve(UserRepository)
      .create({ username, passwordHash, authorities: ["ROLE_USER"], ...(email ? { email } : {}) });
  };

  beforeAll(async () => {
    demo = await startDemo();
    await addUser("fay", "fay@example.org");
    await addUser("gus");
  });
  afterAll(() => demo.close());

  it("answers the same bytes for a known name, an unknown one and one without an address", async () => {
    const answers = [];
    for (const username of ["fay", "nobody-by-this-name", "gus"]) {
      const res = await forgot({ username });
      answers.push({
        status: res.status,
        body: await res.text(),
        type: res.headers.get("content-type"),
        cache: res.headers.get("cache-control"),
      });
    }
    expect(answers[0]).toMatchObject({ status: 202, cache: "no-store" });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    await settle();
    expect(linesFor("gus")).toEqual([]);
    expect(outbox(demo.outboxFile).some((l) => l.username === "nobody-by-this-name")).toBe(false);
  });

  it("mails a single-use link to the verified address; the reset ends every session and token", async () => {
    const before = linesFor("fay").length;
    const login = await fetch(
      `${demo.base}/api/login`,
      json("POST", { username: "fay", password: "fay-password-1" }),
    );
    const { accessToken } = (await login.json()) as { accessToken: string };
    const bearer = { authorization: `Bearer ${accessToken}` };
    expect((await fetch(`${demo.base}/api/me`, { headers: bearer })).status).toBe(200);

    expect((await forgot({ username: " FAY " })).status).toBe(202);
    await expect.poll(() => linesFor("fay").length).toBe(before + 1);
    const mail = linesFor("fay").at(-1)!;
    expect(mail.to).toBe("fay@example.org");
    expect(mail.link).toMatch(/\/reset-password\?token=/);
    const token = new URL(mail.link).searchParams.get("token")!;

    // The link's page (a browser: its CSRF token), then the new password, once.
    const b = new Browser(demo.base);
    const page = await (await b.fetch(`/reset-password?token=${encodeURIComponent(token)}`)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const reset = (password: string) => b.postForm("/reset-password", { token, password, _csrf: csrf });
    expect((await reset("fay-new-password-2")).status).toBe(200);
    expect((await reset("fay-new-password-3")).status).toBe(400);
    // The user is told at their address that the password changed.
    await expect
      .poll(() =>
        outbox(demo.outboxFile).filter((l) => l.channel === "account-notice" && l.to === "fay@example.org"),
      )
      .toHaveLength(1);
    expect((await fetch(`${demo.base}/api/me`, { headers: bearer })).status).toBe(401);
    const again = await fetch(
      `${demo.base}/api/login`,
      json("POST", { username: "fay", password: "fay-new-password-2" }),
    );
    expect(again.status).toBe(200);
  });

  it("mails at most three links per name per window, answering the same every time", async () => {
    await addUser("hal", "hal@example.org");
    for (let i = 0; i < 5; i++) expect((await forgot({ username: "hal" })).status).toBe(202);
    await settle();
    await expect.poll(() => linesFor("hal").length).toBe(3);
    await settle();
    expect(linesFor("hal")).toHaveLength(3);
  });

  it.each([
    ["malformed JSON", "{not json", 400, "MALFORMED_JSON"],
    ["no username", {}, 400, "VALIDATION_FAILED"],
    ["a blank username", { username: "   " }, 400, "VALIDATION_FAILED"],
    ["a username that is not a string", { username: ["fay"] }, 400, "VALIDATION_FAILED"],
    ["an oversized username", { username: "x".repeat(257) }, 400, "VALIDATION_FAILED"],
    ["an oversized body", { username: "x".repeat(2_000_000) }, 413, "PAYLOAD_TOO_LARGE"],
  ])("refuses %s with a stable code and mails nothing", async (_, body, status, code) => {
    const count = outbox(demo.outboxFile).length;
    const res = await forgot(body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { code: string }).code).toBe(code);
    await settle();
    expect(outbox(demo.outboxFile).length).toBe(count);
  });

  it("the login page links to a page whose form does the same: one answer for every name, CSRF required", async () => {
    const b = new Browser(demo.base);
    expect(await (await b.fetch("/login")).text()).toContain('href="/forgot-password"');
    const page = await b.fetch("/forgot-password");
    expect(page.status).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    const before = linesFor("fay").length;
    const sent = [];
    for (const username of ["fay", "nobody-at-all"]) {
      const res = await b.postForm("/forgot-password", { username, _csrf: csrf });
      sent.push({ status: res.status, body: (await res.text()).replace(csrf, "") });
    }
    expect(sent[0]!.status).toBe(200);
    expect(sent[0]!.body).toContain("a reset link is on its way");
    expect(sent[1]).toEqual(sent[0]);
    await expect.poll(() => linesFor("fay").length).toBe(before + 1);
    for (const username of ["", " ", "x".repeat(257)]) {
      const res = await b.postForm("/forgot-password", { username, _csrf: csrf });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Enter your username");
    }
    expect((await b.postForm("/forgot-password", { username: "fay" })).status).toBe(403);
    await settle();
    expect(linesFor("fay").length).toBe(before + 1);
    const hostile = await b.postForm("/forgot-password", { username: '"><script>x</script>', _csrf: csrf });
    expect(await hostile.text()).not.toContain("<script>x");
  });

  it("refuses another media type and another method", async () => {
    const text = await forgot("username=fay", { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    expect((await fetch(`${demo.base}${FORGOT}`)).status).not.toBe(200);
  });
});
