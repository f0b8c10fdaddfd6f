import { describe, expect, it } from "vitest";
import { magicLinkFor } from "./magic-link.js";
import { oneTimeToken } from "./one-time-token-service.js";

const token = oneTimeToken("abc_DEF-123", "alice", 0);

describe("magicLinkFor", () => {
  it("joins the configured base URL, the submit page and the encoded token", () => {
    expect(magicLinkFor({ baseUrl: "http://localhost:8080", submitPageUrl: "/login/ott" })(token)).toBe(
      "http://localhost:8080/login/ott?token=abc_DEF-123",
    );
    expect(magicLinkFor({ baseUrl: "https://app.example/base/", submitPageUrl: "/ott" })(token)).toBe(
      "https://app.example/base/ott?token=abc_DEF-123",
    );
    expect(
      magicLinkFor({ baseUrl: "https://app.example", submitPageUrl: "/ott" })(oneTimeToken("a+b&c", "x", 0)),
    ).toBe("https://app.example/ott?token=a%2Bb%26c");
  });

  it("refuses base URLs that are not plain http(s) and submit pages that are not local paths", () => {
    for (const baseUrl of [
      "localhost:8080",
      "javascript:alert(1)",
      "ftp://x",
      "https://x/?q=1",
      "https://u:p@x",
      "x",
    ]) {
      expect(() => magicLinkFor({ baseUrl, submitPageUrl: "/ott" }), baseUrl).toThrow(
        expect.objectContaining({ code: "CONFIGURATION_INVALID" }),
      );
    }
    expect(() => magicLinkFor({ baseUrl: "https://x", submitPageUrl: "ott" })).toThrow(
      expect.objectContaining({ code: "CONFIGURATION_INVALID" }),
    );
  });
});
