import { describe, expect, it } from "vitest";
import { HttpExchange } from "../../web/http-exchange.js";
import { isSavableNavigation } from "./savable-navigation.js";

const NAVIGATION = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "sec-fetch-mode": "navigate",
  "sec-fetch-dest": "document",
};
const exchange = (url: string, headers: Record<string, string> = NAVIGATION, method = "GET") =>
  new HttpExchange({ method, url, headers, remoteAddress: "203.0.113.1" });

describe("isSavableNavigation", () => {
  it("takes a browser's top-level page navigation, and an HTML GET from a client without Sec-Fetch-*", () => {
    expect(isSavableNavigation(exchange("/orders?page=2"))).toBe(true);
    expect(isSavableNavigation(exchange("/docs/v1.2/intro"))).toBe(true);
    expect(isSavableNavigation(exchange("/page.html"))).toBe(true);
    expect(isSavableNavigation(exchange("/orders", { accept: "text/html" }))).toBe(true);
    expect(isSavableNavigation(exchange("/orders", { accept: "TEXT/HTML; q=0.5" }))).toBe(true);
  });

  it("refuses what is not a GET for HTML, or what Sec-Fetch-* says is no top-level navigation", () => {
    expect(isSavableNavigation(exchange("/orders", NAVIGATION, "POST"))).toBe(false);
    expect(isSavableNavigation(exchange("/orders", NAVIGATION, "HEAD"))).toBe(false);
    expect(isSavableNavigation(exchange("/orders", {}))).toBe(false);
    expect(isSavableNavigation(exchange("/orders", { accept: "*/*" }))).toBe(false);
    expect(isSavableNavigation(exchange("/orders", { accept: "application/json" }))).toBe(false);
    expect(isSavableNavigation(exchange("/orders", { accept: "text/html;q=0" }))).toBe(false);
    for (const [name, value] of [
      ["sec-fetch-mode", "cors"],
      ["sec-fetch-mode", "no-cors"],
      ["sec-fetch-dest", "iframe"],
      ["sec-fetch-dest", "image"],
      ["sec-fetch-dest", "empty"],
    ])
      expect(isSavableNavigation(exchange("/orders", { ...NAVIGATION, [name!]: value! })), value).toBe(false);
  });

  it("never takes a favicon, an asset path or an asset extension, whatever the headers say", () => {
    for (const url of [
      "/favicon.ico",
      "/FAVICON.ICO",
      "/favicon-32x32.png",
      "/js/login-page.js",
      "/js/anything",
      "/%6As/encoded",
      "/css/site",
      "/images/logo",
      "/img/x",
      "/.well-known/security.txt",
      "/.well-known/change-password",
      "/logo.svg",
      "/photo.JPG",
      "/app.mjs",
      "/site.webmanifest",
      "/fonts/a.woff2",
      "/orders/7.json",
      "/robots.txt",
    ])
      expect(isSavableNavigation(exchange(url)), url).toBe(false);
  });

  it("judges the URL it is given (the one to save) when it is not the exchange's", () => {
    expect(isSavableNavigation(exchange("/orders"), "/favicon.ico")).toBe(false);
    expect(isSavableNavigation(exchange("/favicon.ico"), "/orders")).toBe(true);
  });
});
