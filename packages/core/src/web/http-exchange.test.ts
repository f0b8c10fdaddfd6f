import { describe, expect, it } from "vitest";
import { isPlatformError } from "../kernel/platform-error.js";
import { HttpExchange, parseCookieHeader, serializeCookie } from "./http-exchange.js";

function exchange(init: Partial<ConstructorParameters<typeof HttpExchange>[0]> & { body?: string } = {}) {
  const { body, ...rest } = init;
  return new HttpExchange({
    method: "post",
    url: "/login?next=%2Fhome&x=1",
    headers: {},
    remoteAddress: "127.0.0.1",
    readBody: body === undefined ? undefined : async () => body,
    ...rest,
  });
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isPlatformError(e)) return e.code;
    throw e;
  }
  return "none";
}

describe("HttpExchange", () => {
  it("splits path and query and upper-cases the method", () => {
    const ex = exchange();
    expect(ex.method).toBe("POST");
    expect(ex.path).toBe("/login");
    expect(ex.query.get("next")).toBe("/home");
  });

  it("splits its canonical path into segments once, and none for a path without '/'", () => {
    const ex = exchange({ url: "/api/%6frders/?q=1" });
    expect(ex.path).toBe("/api/orders");
    expect(ex.segments).toEqual(["api", "orders"]);
    expect(ex.segments).toBe(ex.segments);
    expect(exchange({ url: "/" }).segments).toEqual([""]);
    expect(exchange({ url: "*" }).segments).toBeUndefined();
    expect(ex.match).toEqual({ chain: undefined, route: undefined, variables: {} });
  });

  it("reads headers case-insensitively and cookies from the Cookie header", () => {
    const ex = exchange({
      headers: { "Content-Type": "application/json", Cookie: "SESSION=abc; theme=dark" },
    });
    expect(ex.header("content-type")).toBe("application/json");
    expect(ex.cookie("SESSION")).toBe("abc");
    expect(ex.cookie("missing")).toBeUndefined();
  });

  it("parses a JSON object body and a form body into fields", async () => {
    const json = exchange({
      headers: { "content-type": "application/json; charset=utf-8" },
      body: '{"username":"u"}',
    });
    expect(await json.fields()).toEqual({ username: "u" });
    const form = exchange({
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=a%20b&username=c&password=p",
    });
    expect({ ...(await form.fields()) }).toEqual({ username: "a b", password: "p" });
  });

  it.each([
    ["application/json", "{bad", "MALFORMED_JSON"],
    ["application/json", "[1,2]", "MALFORMED_BODY"],
    ["application/json", "null", "MALFORMED_BODY"],
    ["application/json", '"text"', "MALFORMED_BODY"],
    ["text/plain", "username=a", "UNSUPPORTED_MEDIA_TYPE"],
    ["application/xml", "<a/>", "UNSUPPORTED_MEDIA_TYPE"],
  ])("%s body %j fails with %s", async (type, body, code) => {
    expect(await codeOf(exchange({ headers: { "content-type": type }, body }).fields())).toBe(code);
  });

  it("refuses a form body where only JSON is accepted", async () => {
    const ex = exchange({ headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=b" });
    expect(await codeOf(ex.fields(["json"]))).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses JSON nested deeper than the limit", async () => {
    const deep = `${'{"a":'.repeat(40)}1${"}".repeat(40)}`;
    expect(
      await codeOf(exchange({ headers: { "content-type": "application/json" }, body: deep }).fields()),
    ).toBe("MALFORMED_BODY");
    const ok = `${'{"a":'.repeat(10)}1${"}".repeat(10)}`;
    expect(await exchange({ headers: { "content-type": "application/json" }, body: ok }).fields()).toBeTypeOf(
      "object",
    );
  });

  it("checks the accepted kinds on every call, not only the first", async () => {
    const ex = exchange({ headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=b" });
    expect(await ex.fields()).toEqual({ a: "b" });
    expect(await codeOf(ex.fields(["json"]))).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("treats an empty body without content type as no fields", async () => {
    expect(await exchange().fields()).toEqual({});
  });

  it("does not pollute Object.prototype from a hostile JSON body", async () => {
    const ex = exchange({
      headers: { "content-type": "application/json" },
      body: '{"__proto__":{"polluted":true}}',
    });
    await ex.fields();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("decides JSON preference from Accept, content type and X-Requested-With", () => {
    expect(exchange({ headers: { accept: "application/json" } }).wantsJson()).toBe(true);
    expect(exchange({ headers: { accept: "text/html,application/xhtml+xml" } }).wantsJson()).toBe(false);
    expect(exchange({ headers: { "content-type": "application/json" } }).wantsJson()).toBe(true);
    expect(exchange({ headers: { "x-requested-with": "XMLHttpRequest" } }).wantsJson()).toBe(true);
    expect(exchange({ headers: {} }).wantsJson()).toBe(false);
  });

  it("commits JSON, HTML and redirect answers", () => {
    const ex = exchange();
    ex.redirect("/home");
    expect(ex.response).toMatchObject({ status: 302, committed: true });
    expect(ex.response.headers.get("location")).toBe("/home");
    ex.json(401, { success: false });
    expect(ex.response.headers.get("content-type")).toContain("application/json");
  });

  it("replaces a cookie of the same name instead of sending two", () => {
    const ex = exchange();
    ex.setCookie({ name: "SESSION", value: "a" });
    ex.setCookie({ name: "SESSION", value: "b" });
    expect(ex.response.cookies).toEqual([{ name: "SESSION", value: "b" }]);
  });
});

describe("cookies", () => {
  it("parses quoted, encoded and malformed pairs", () => {
    const m = parseCookieHeader('a=1; b="two"; c=%41; bad; =x; d=%E0%A4%A; a=dup');
    expect([...m]).toEqual([
      ["a", "1"],
      ["b", "two"],
      ["c", "A"],
    ]);
  });

  it("serialises attributes", () => {
    expect(
      serializeCookie({
        name: "SESSION",
        value: "v 1",
        httpOnly: true,
        secure: true,
        sameSite: "Lax",
        maxAge: 60,
      }),
    ).toBe("SESSION=v%201; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax");
    expect(serializeCookie({ name: "S", value: "", maxAge: 0 })).toContain("Expires=Thu, 01 Jan 1970");
  });
});
