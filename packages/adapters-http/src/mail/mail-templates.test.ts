import type { OneTimeTokenMessage } from "@keyward/core/ports";
import { describe, expect, it } from "vitest";
import { defaultMailTemplates, escapeHtml } from "./mail-templates.js";

const base: OneTimeTokenMessage = {
  username: "alice",
  to: "alice@example.com",
  token: "secret-token-value",
  link: "https://id.example.com/login/ott?token=secret-token-value",
  channel: "email",
  at: 1,
};

describe("defaultMailTemplates", () => {
  it("renders each channel with its subject; only an MFA code carries its token outside the link", () => {
    const subjects = ["email", "mfa-code", "password-reset", "sms"].map((channel) => {
      const mail = defaultMailTemplates.render({ ...base, channel, link: "https://id.example.com/x" });
      expect(mail.text.includes("secret-token-value")).toBe(channel === "mfa-code");
      expect(mail.html.includes("secret-token-value")).toBe(channel === "mfa-code");
      return mail.subject;
    });
    expect(subjects).toEqual([
      "Your sign-in link",
      "Your verification code",
      "Reset your password",
      "Your one-time link",
    ]);
  });

  it("escapes every value in the HTML part", () => {
    const hostile = '<script>alert("x")</script>&\'';
    const mail = defaultMailTemplates.render({
      ...base,
      channel: "mfa-code",
      username: hostile,
      token: hostile,
      link: `https://id.example.com/p?a="><img src=x onerror=alert(1)>`,
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).not.toMatch(/href="[^"]*"[^>]*onerror/);
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
  });

  it("makes only an http(s) link a hyperlink", () => {
    for (const link of ["javascript:alert(1)", "data:text/html,<b>x</b>", "not a url"]) {
      const mail = defaultMailTemplates.render({ ...base, link });
      expect(mail.html).not.toContain("<a ");
      expect(mail.html).not.toContain("<b>");
    }
    expect(defaultMailTemplates.render(base).html).toContain(`<a href="${base.link}">Sign in</a>`);
  });

  it("keeps the subject on one line", () => {
    for (const channel of ["email", "mfa-code", "password-reset", "\r\nBcc: x"]) {
      expect(defaultMailTemplates.render({ ...base, channel }).subject).not.toMatch(/[\r\n]/);
    }
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and attributes", () => {
    expect(escapeHtml(`<a href='x' title="y">&</a>`)).toBe(
      "&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;&lt;/a&gt;",
    );
  });
});
