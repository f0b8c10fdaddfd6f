import { describe, expect, it } from "vitest";
import { CONSOLE_STYLESHEET, renderConsolePage } from "./console-page.js";

const sections = [
  { id: "releases", label: "Releases", href: "/platform/admin/releases", order: 20 },
  { id: "policy-center", label: "Policy <Center>", href: "/admin/policy-center", order: 10 },
];

describe("renderConsolePage", () => {
  it("lists sections by order, marks the active one and escapes every value but the body", () => {
    const html = renderConsolePage({
      title: 'Policies "<b>"',
      sections,
      active: "policy-center",
      csrfToken: 'tok"en',
      notice: { kind: "error", text: "<img src=x onerror=alert(1)>" },
      body: "<p>body</p>",
      scripts: ["/js/platform-console.js"],
    });
    expect(html.indexOf("/admin/policy-center")).toBeLessThan(html.indexOf("/platform/admin/releases"));
    expect(html).toContain('<a href="/admin/policy-center" aria-current="page">Policy &#60;Center&#62;</a>');
    expect(html).toContain("<title>Policies &#34;&#60;b&#62;&#34;</title>");
    expect(html).toContain('content="tok&#34;en"');
    expect(html).toContain('role="alert">&#60;img src=x onerror=alert(1)&#62;</p>');
    expect(html).toContain("<p>body</p>");
    expect(html).toContain(`<link rel="stylesheet" href="${CONSOLE_STYLESHEET}">`);
    expect(html).toContain('<script src="/js/platform-console.js" defer></script>');
  });

  it("has no inline script or style", () => {
    const html = renderConsolePage({ title: "t", sections, csrfToken: undefined, body: "" });
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect(html).not.toContain("_csrf");
  });
});
