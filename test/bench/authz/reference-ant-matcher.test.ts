import { describe, expect, it } from "vitest";
import { compileReferenceAntPattern } from "./reference-ant-matcher.js";

const matches = (pattern: string, path: string): boolean => compileReferenceAntPattern(pattern).matches(path);

describe("reference Ant matcher", () => {
  it("matches literals exactly, case-sensitively, without trailing-slash leniency", () => {
    expect(matches("/api/v1/orders", "/api/v1/orders")).toBe(true);
    expect(matches("/api/v1/orders", "/api/v1/Orders")).toBe(false);
    expect(matches("/api/v1/orders", "/api/v1/orders/")).toBe(false);
    expect(matches("/api/v1/orders", "/api/v1/orders2")).toBe(false);
    expect(matches("/a.b", "/aXb")).toBe(false);
  });

  it("reads ? as one character and * as a run inside one segment", () => {
    expect(matches("/v?/x", "/v1/x")).toBe(true);
    expect(matches("/v?/x", "/v/x")).toBe(false);
    expect(matches("/v?/x", "/v12/x")).toBe(false);
    expect(matches("/api/*/export", "/api/42/export")).toBe(true);
    expect(matches("/api/*/export", "/api//export")).toBe(true);
    expect(matches("/api/*/export", "/api/4/2/export")).toBe(false);
    expect(matches("/files/*.css", "/files/site.css")).toBe(true);
    expect(matches("/files/*.css", "/files/a/site.css")).toBe(false);
    expect(matches("/a**", "/abc")).toBe(true);
    expect(matches("/a**", "/abc/d")).toBe(false);
  });

  it("reads a ** segment as zero or more whole segments, anywhere", () => {
    expect(matches("/api/v1/orders/**", "/api/v1/orders")).toBe(true);
    expect(matches("/api/v1/orders/**", "/api/v1/orders/")).toBe(true);
    expect(matches("/api/v1/orders/**", "/api/v1/orders/1/items/2")).toBe(true);
    expect(matches("/api/v1/orders/**", "/api/v1/ordersX")).toBe(false);
    expect(matches("/**", "/")).toBe(true);
    expect(matches("/**", "")).toBe(true);
    expect(matches("/**", "/anything/at/all")).toBe(true);
    expect(matches("/a/**/b", "/a/b")).toBe(true);
    expect(matches("/a/**/b", "/a/x/y/b")).toBe(true);
    expect(matches("/a/**/b", "/a/x/yb")).toBe(false);
    expect(matches("/a/**/**/b", "/a/x/b")).toBe(true);
  });

  it("reads {var} as a non-empty segment part and {var:regex} as a regex confined to the segment", () => {
    expect(matches("/orders/{id}", "/orders/17")).toBe(true);
    expect(matches("/orders/{id}", "/orders/")).toBe(false);
    expect(matches("/orders/{id}", "/orders/1/2")).toBe(false);
    expect(matches("/orders/{id:\\d+}", "/orders/17")).toBe(true);
    expect(matches("/orders/{id:\\d+}", "/orders/x17")).toBe(false);
    expect(matches("/orders/{id:\\d{2}}", "/orders/17")).toBe(true);
    expect(matches("/orders/{id:\\d{2}}", "/orders/170")).toBe(false);
    expect(matches("/f/{name:.+}", "/f/a.txt")).toBe(true);
    expect(matches("/f/{name:.+}", "/f/a/b.txt")).toBe(false);
    expect(matches("/f/{name:[^x]+}", "/f/a/b")).toBe(false);
    expect(matches("/f/{name:\\D+}", "/f/a/b")).toBe(false);
    expect(matches("/f/{name}.{ext}", "/f/a.tar.gz")).toBe(true);
    expect(matches("/f/{name}.{ext}", "/f/a")).toBe(false);
  });

  it("exposes the literal segments before the first wildcard", () => {
    expect(compileReferenceAntPattern("/api/v1/orders/{id}").literalPrefix).toBe("/api/v1/orders");
    expect(compileReferenceAntPattern("/api/v1/orders/**").literalPrefix).toBe("/api/v1/orders");
    expect(compileReferenceAntPattern("/api/*/x").literalPrefix).toBe("/api");
    expect(compileReferenceAntPattern("/**").literalPrefix).toBe("");
    expect(compileReferenceAntPattern("/a/b").literalPrefix).toBe("/a/b");
  });

  it("rejects what it does not understand", () => {
    expect(() => compileReferenceAntPattern("api/x")).toThrow();
    expect(() => compileReferenceAntPattern("/a/{id")).toThrow();
    expect(() => compileReferenceAntPattern("/a/{id:(x)\\1}")).toThrow();
  });
});
