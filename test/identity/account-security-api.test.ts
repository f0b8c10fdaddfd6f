import { UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mfaBearerToken, type RunningDemo, startDemo } from "../support/demo-server.js";
import { Browser } from "./identity-test-server.js";
import { outbox } from "./mfa/mfa-test-support.js";

// One demo: admin (MFA by e-mailed code) changes their own address through the mailed link.
describe("the account security API: the e-mail change (PUT /api/account/email, /verify-email) and GET /api/account", () => {
  let demo: RunningDemo;
  let bearer: Record<string, string>;
  const change = (body: unknown, headers = bearer) =>
    fetch(`${demo.base}/api/account/email`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const mails = (channel: string) => outbox(demo.outboxFile).filter((l) => l.channel === channel);
  const linkOf = (mail: { link: string }) => new URL(mail.link).searchParams.get("link")!;
  const confirm = async (link: string) => {
    const b = new Browser(demo.base);
    const page = await b.fetch(`/verify-email?link=${encodeURIComponent(link)}`);
    const html = await page.text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    return { page, html, post: await b.postForm("/verify-email", { link, _csrf: csrf }) };
  };

  beforeAll(async () => {
    demo = await startDemo();
    // admin signs in through the API flow with the mailed code: a fresh second factor.
    bearer = { authorization: `Bearer ${await mfaBearerToken(demo, "admin", "admin")}` };
  });
  afterAll(() => demo.close());

  it("mails a link to the new address and changes nothing until it is used; the old address is told", async () => {
    const users = demo.platform.resolve(UserRepository);
    const before = (await users.findByUsername("admin"))?.email;
    const res = await change({ email: "Admin.New@Example.ORG" });
    expect(res.status).toBe(202);
    await expect.poll(() => mails("email-verify").length).toBe(1);
    const mail = mails("email-verify")[0]!;
    expect(mail.to).toBe("Admin.New@example.org");
    expect((await users.findByUsername("admin"))?.email).toBe(before);

    // Opening the link (a mail scanner does) never applies it.
    const opened = await fetch(`${demo.base}/verify-email?link=${encodeURIComponent(linkOf(mail))}`);
    expect(await opened.text()).toContain("Confirm the new address");
    expect((await users.findByUsername("admin"))?.email).toBe(before);
    const { post } = await confirm(linkOf(mail));
    expect(post.status).toBe(200);
    expect((await users.findByUsername("admin"))?.email).toBe("Admin.New@example.org");
    // Used once: the same link no longer applies (the address it was asked against is gone).
    expect((await confirm(linkOf(mail))).post.status).toBe(400);
  });

  it("tells the old address when there was one, and refuses a forged or altered link", async () => {
    expect((await change({ email: "admin.third@example.org" })).status).toBe(202);
    await expect.poll(() => mails("email-verify").length).toBe(2);
    const link = linkOf(mails("email-verify")[1]!);
    const altered = `${link.slice(0, -4)}${link.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    for (const bad of [altered, "e1.x.y", ""]) {
      expect((await confirm(bad)).post.status, bad.slice(0, 12)).toBe(400);
    }
    // An oversized link is not even carried into the page's form.
    expect((await confirm("x".repeat(1500))).html).toContain("That link is invalid");
    expect((await confirm(link)).post.status).toBe(200);
    await expect
      .poll(() => mails("account-notice").filter((m) => m.to === "Admin.New@example.org").length)
      .toBe(1);
  });

  it("needs a signed-in caller and refuses bad input with a stable code", async () => {
    expect((await change({ email: "x@example.org" }, {})).status).toBe(401);
    for (const [body, status] of [
      ["{nope", 400],
      [{}, 400],
      [{ email: "not-an-address" }, 400],
      [{ email: `${"a".repeat(300)}@example.org` }, 400],
      [{ email: "admin.third@example.org" }, 409],
    ] as const) {
      const res = await change(body);
      expect(res.status, JSON.stringify(body).slice(0, 20)).toBe(status);
    }
  });

  it("a used link never works again, even when the address comes back; links mailed to the old address die", async () => {
    const users = demo.platform.resolve(UserRepository);
    const start = (await users.findByUsername("admin"))?.email;
    const requestLink = async (email: string) => {
      const before = mails("email-verify").length;
      expect((await change({ email })).status).toBe(202);
      await expect.poll(() => mails("email-verify").length).toBe(before + 1);
      return linkOf(mails("email-verify").at(-1)!);
    };
    // A reset link mailed to the current address before it changes.
    const resets = () => mails("password-forgot");
    const resetsBefore = resets().length;
    expect(
      (
        await fetch(`${demo.base}/api/password/forgot`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "admin" }),
        })
      ).status,
    ).toBe(202);
    await expect.poll(() => resets().length).toBe(resetsBefore + 1);
    const resetToken = new URL(resets().at(-1)!.link).searchParams.get("token")!;

    const away = await requestLink("admin.away@example.org");
    expect((await confirm(away)).post.status).toBe(200);
    const back = await requestLink(start!);
    expect((await confirm(back)).post.status).toBe(200);
    expect((await users.findByUsername("admin"))?.email).toBe(start);
    // The first link again: the address is what it was asked against, but the account moved on.
    expect((await confirm(away)).post.status).toBe(400);
    expect((await users.findByUsername("admin"))?.email).toBe(start);

    const b = new Browser(demo.base);
    const page = await (await b.fetch(`/reset-password?token=${encodeURIComponent(resetToken)}`)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const reset = await b.postForm("/reset-password", {
      token: resetToken,
      password: "a-new-password-9",
      _csrf: csrf,
    });
    expect(reset.status).toBe(400);
  });

  it("the demo's /account page opens for a signed-in user; its forms send a password-only session to the step-up", async () => {
    const b = new Browser(demo.base);
    const csrf = await b.csrfFrom("/login");
    expect((await b.postForm("/login", { username: "user", password: "password", _csrf: csrf })).status).toBe(
      302,
    );
    const page = await b.navigate("/account");
    expect(page.status).toBe(200);
    const token = /<meta name="_csrf" content="([^"]+)">/.exec(await page.text())?.[1] ?? "";
    const result = await b.postForm("/account/sessions/end-others", { _csrf: token });
    expect(result.status).toBe(303);
    expect(result.headers.get("location")).toMatch(/^\/mfa\//);
  });

  it("GET /api/account lists the address, every factor, passkeys and sessions; never a secret", async () => {
    expect((await fetch(`${demo.base}/api/account`)).status).toBe(401);
    const res = await fetch(`${demo.base}/api/account`, { headers: bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as {
      username: string;
      email: string | null;
      factors: { type: string; enrolled: boolean; remaining?: number }[];
      passkeys: unknown[];
      sessions: unknown[];
    };
    expect(body).toMatchObject({ username: "admin", email: "admin.third@example.org", passkeys: [] });
    expect(body.factors.map((f) => [f.type, f.enrolled])).toEqual([
      ["OTT", true],
      ["PASSKEY", false],
      ["TOTP", false],
      ["RECOVERY_CODE", false],
    ]);
    expect(body.factors.find((f) => f.type === "RECOVERY_CODE")?.remaining).toBe(0);
    expect(JSON.stringify(body)).not.toMatch(/password|secret|publicKey/i);
  });
});
