import { describe, expect, it } from "vitest";
import { canonicalPathPattern, canonicalPath } from "./canonical-path.js";
import { HttpExchange } from "./http-exchange.js";

const PATHS: Array<[input: string, canonical: string]> = [
  ["/", "/"],
  ["", ""],
  ["/a", "/a"],
  // trailing slashes go (all of them, so the function is idempotent); inner ones stay for the firewall
  ["/a/", "/a"],
  ["/a//", "/a"],
  ["/a/b/", "/a/b"],
  ["//", "/"],
  ["/a//b", "/a//b"],
  // needless escapes are decoded (RFC 3986 6.2.2.2, and every other byte that may stand raw)
  ["/%61dmin", "/admin"],
  ["/api/orders/%31", "/api/orders/1"],
  ["/%7euser", "/~user"],
  ["/%41%42", "/AB"],
  ["/a%40b", "/a@b"],
  ["/a%3Bb", "/a;b"],
  ["/a%5E", "/a^"],
  ["/a%2e", "/a."],
  ["/a/%2E%2E/b", "/a/../b"],
  // escapes that must stay are upper-cased (RFC 3986 6.2.2.1)
  ["/a%2fb", "/a%2Fb"],
  ["/a%2Fb", "/a%2Fb"],
  ["/a%5cb", "/a%5Cb"],
  ["/a%25", "/a%25"],
  ["/a%20b", "/a%20b"],
  ["/caf%c3%a9", "/caf%C3%A9"],
  ["/a%3f", "/a%3F"],
  // bytes that may not stand raw are escaped; a stray '%' is data
  ["/café", "/caf%C3%A9"],
  ["/a b", "/a%20b"],
  ["/a\nb", "/a%0Ab"],
  ["/a\\b", "/a%5Cb"],
  ['/a"<>`{}', "/a%22%3C%3E%60%7B%7D"],
  ["/a%", "/a%25"],
  ["/a%zz", "/a%25zz"],
  ["/a%4", "/a%254"],
  ["/\u{1F600}", "/%F0%9F%98%80"],
  ["/\uD800x", "/%EF%BF%BDx"],
  // case, dots and other raw bytes are kept: other paths, judged and routed alike
  ["/ADMIN", "/ADMIN"],
  ["/admin.", "/admin."],
  ["/a/./b", "/a/./b"],
  ["/a;b=1", "/a;b=1"],
  ["/a|b[c]^$", "/a|b[c]^$"],
];

describe("canonicalPath", () => {
  it.each(PATHS)("%j is %j", (input, canonical) => {
    expect(canonicalPath(input)).toBe(canonical);
    expect(canonicalPath(canonical)).toBe(canonical);
  });

  it("returns a canonical path as the same string (the per-request fast path)", () => {
    const path = "/api/orders/42";
    expect(canonicalPath(path)).toBe(path);
  });

  it("makes two spellings equal exactly when their segments decode to the same bytes", () => {
    // A seeded generator of segments and of random spellings of them (raw, lower/upper escapes).
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pool = [
      "a",
      "Z",
      "0",
      "-",
      ".",
      "_",
      "~",
      "@",
      ":",
      ";",
      "=",
      "+",
      "$",
      "!",
      "*",
      "'",
      "%",
      " ",
      "é",
      "/",
      "?",
      "#",
      "^",
      "|",
    ];
    const spell = (segment: string): string =>
      [...new TextEncoder().encode(segment)]
        .map((byte) => {
          const ch = String.fromCharCode(byte);
          const hex = byte.toString(16).padStart(2, "0");
          const mode = rnd(3);
          if (byte < 0x80 && /[A-Za-z0-9\-._~@:;=+$!*'^|]/.test(ch) && mode === 0) return ch;
          return `%${mode === 1 ? hex.toUpperCase() : hex}`;
        })
        .join("");
    for (let run = 0; run < 500; run++) {
      const segments = Array.from({ length: 1 + rnd(3) }, () =>
        Array.from({ length: 1 + rnd(4) }, () => pool[rnd(pool.length)]).join(""),
      );
      const a = canonicalPath(`/${segments.map(spell).join("/")}`);
      const b = canonicalPath(`/${segments.map(spell).join("/")}`);
      expect(a).toBe(b);
      expect(a.slice(1).split("/").map(decodeURIComponent)).toEqual(segments);
      const other = [...segments];
      other[other.length - 1] += "x";
      expect(canonicalPath(`/${other.map(spell).join("/")}`)).not.toBe(a);
    }
  });

  it("is what an HttpExchange carries as its path; the received form stays in rawPath", () => {
    const ex = new HttpExchange({
      method: "DELETE",
      url: "/api/orders/%31/?x=1",
      headers: {},
      remoteAddress: "",
    });
    expect(ex.path).toBe("/api/orders/1");
    expect(ex.rawPath).toBe("/api/orders/%31/");
    expect(ex.query.get("x")).toBe("1");
    const bound = new HttpExchange({
      method: "GET",
      url: "/admin/",
      rawPath: "/admin/.",
      headers: {},
      remoteAddress: "",
    });
    expect([bound.path, bound.rawPath]).toEqual(["/admin", "/admin/."]);
  });
});

describe("canonicalPathPattern", () => {
  it.each([
    ["/orders/", "/orders"],
    ["/", "/"],
    ["/**/", "/**"],
    ["/%61dmin/**", "/admin/**"],
    ["/café/*", "/caf%C3%A9/*"],
    ["/a%2fb", "/a%2Fb"],
    ["/t?st/", "/t?st"],
    ["/api/{id}/", "/api/{id}"],
    // a variable's regex is not path text: copied exactly (`%`, `\`, `{n}`, `?` included)
    ["/a/{x:[%]+}/", "/a/{x:[%]+}"],
    ["/a/{x:\\d{2}é?}", "/a/{x:\\d{2}é?}"],
    ["/a/{x", "/a/{x"],
  ])("%j is %j", (input, canonical) => {
    expect(canonicalPathPattern(input)).toBe(canonical);
    expect(canonicalPathPattern(canonical)).toBe(canonical);
  });
});
