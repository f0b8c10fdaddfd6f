import { describe, expect, it } from "vitest";
import { sameOriginUrl } from "./server-path.js";

const ORIGIN = "http://127.0.0.1:8080";

describe("sameOriginUrl", () => {
  it.each([
    ["/api/login", "http://127.0.0.1:8080/api/login"],
    ["/mfa/api/verify-ott?x=1#f", "http://127.0.0.1:8080/mfa/api/verify-ott?x=1#f"],
    ["/admin/api/users/a%2Fb", "http://127.0.0.1:8080/admin/api/users/a%2Fb"],
  ])("follows the same-origin path %s", (path, url) => {
    expect(sameOriginUrl(ORIGIN, path)).toBe(url);
  });

  it.each([
    "//evil.example/x",
    "https://evil.example/x",
    "http://127.0.0.1:8080/x",
    "javascript:alert(1)",
    "/\\evil.example/x",
    "/x\\y",
    "/\t/evil.example",
    "/\n/evil.example",
    "/ok\u001b[2J",
    "/a b",
    "/\u0085x",
    "x/y",
    "",
    42,
    undefined,
  ])("refuses %j: SERVER_PATH_REFUSED", (path) => {
    expect(() => sameOriginUrl(ORIGIN, path)).toThrow(
      expect.objectContaining({ code: "SERVER_PATH_REFUSED" }),
    );
  });

  it("never prints the refused path raw", () => {
    try {
      sameOriginUrl(ORIGIN, "//evil\u001b]0;t\u0007/\nx");
      expect.unreachable();
    } catch (error) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what is looked for.
      expect((error as Error).message).not.toMatch(/[\u0000-\u001f]/);
    }
  });
});
