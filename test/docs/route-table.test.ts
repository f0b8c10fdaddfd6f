import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { API_MFA_PREFIX, buildDemoPlatform, routeListMarkdown } from "@keyward/cli";
import type { Platform } from "@keyward/core";
import { Logger } from "@keyward/core/ports";
import { type Route, RouteTable } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CapturingLogger } from "../../packages/adapters-http/src/test-support.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

const doc = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));
/** The docs whose tables name endpoints (`METHOD /path` in a cell, or a method column and a URL column). */
const URL_TABLE_DOCS = [
  "authentication.md",
  "authorization.md",
  "architecture.md",
  "cli.md",
  "glossary.md",
  "prompt-governance.md",
  "sealed-evidence.md",
  "prompt-inspection.md",
  "../README.md",
];
const METHODS = "GET|HEAD|POST|PUT|PATCH|DELETE";
/** Documented endpoints of a feature the demo does not configure (an MFA flow with a passkey factor). */
const NOT_IN_THE_DEMO = new Set(["POST /login/mfa-webauthn", "POST /mfa/webauthn/authenticate/options"]);

/**
 * Every endpoint in the table rows of a doc, as `METHOD /path` (`{id}` and `<id>` placeholders kept):
 * `METHOD /path` in a cell, or a first column of methods (`GET, POST`) and the URLs of the second.
 */
function endpointsIn(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n").filter((l) => l.startsWith("|"))) {
    for (const m of line.matchAll(new RegExp(`\\b(${METHODS}) (/[^\\s\`,;)|]*)`, "g"))) {
      out.push(`${m[1]} ${m[2]!.replace(/\?.*$/, "")}`);
    }
    const cells = line.split("|").map((c) => c.trim());
    if (!new RegExp(`^(${METHODS})(, (${METHODS}))*$`).test(cells[1] ?? "")) continue;
    for (const method of cells[1]!.split(", ")) {
      for (const url of (cells[2] ?? "").matchAll(/`(\/[^`?]*)[^`]*`/g)) out.push(`${method} ${url[1]}`);
    }
  }
  return out;
}

/** A concrete request path for a documented one: each `{x}` or `<x>` placeholder becomes a segment. */
function sample(path: string): string {
  return path.replace(/\{[^}]+\}|<[^>]+>/g, "x1").replace(/\/\*\*$/, "/x1");
}

describe("the route table and the docs", () => {
  let platform: Platform;
  let table: RouteTable;
  let routes: readonly Route[];
  beforeAll(async () => {
    const demo = await buildDemoPlatform(
      {
        properties: { ...LOW_COST_SCRYPT },
        register: (c) => c.registerInstance(Logger, new CapturingLogger()),
      },
      {},
    );
    platform = demo.platform;
    table = platform.resolve(RouteTable);
    routes = table.list();
  }, 60_000);
  afterAll(() => platform.stop());

  it("docs/routes.md lists the demo platform's route table (ROUTES_WRITE=1 rewrites it)", () => {
    const expected = routeListMarkdown(routes);
    if (process.env.ROUTES_WRITE === "1") writeFileSync(doc("routes.md"), expected);
    expect(readFileSync(doc("routes.md"), "utf8")).toBe(expected);
  });

  it("serves every METHOD /path of the docs' URL tables from the table", () => {
    const chains = [...new Set(routes.map((r) => r.chain).filter((c) => c !== undefined))];
    const servedAt = (method: string, concrete: string): boolean =>
      table.match(method, concrete).kind === "found" ||
      chains.some((chain) => table.matchChain(chain, method, concrete) !== undefined);
    // A flow endpoint is served by the demo's API flow under its urlPrefix when not at its own path.
    const served = (endpoint: string): boolean => {
      const [method, path] = endpoint.split(" ") as [string, string];
      if (NOT_IN_THE_DEMO.has(endpoint)) return true;
      return servedAt(method, sample(path)) || servedAt(method, `${API_MFA_PREFIX}${sample(path)}`);
    };
    const documented = URL_TABLE_DOCS.flatMap((name) =>
      endpointsIn(readFileSync(doc(name), "utf8")).map((e) => `${e} (${name})`),
    );
    expect(documented.length).toBeGreaterThan(40);
    expect(documented.filter((e) => !served(e.replace(/ \(.*\)$/, "")))).toEqual([]);
  });

  it("documents every route of the table in the URL tables (ANY and HEAD twins aside)", () => {
    const documented = URL_TABLE_DOCS.flatMap((name) => endpointsIn(readFileSync(doc(name), "utf8")));
    const shapes = new Set(documented.map((e) => shape(e)));
    // A flow's urlPrefix serves the documented flow endpoints under it.
    const missing = routes
      .filter((r) => r.method !== "ANY" && r.method !== "HEAD")
      .map((r) => `${r.method} ${r.path.replace(new RegExp(`^${API_MFA_PREFIX}(?=/)`), "")}`)
      .filter((e) => !shapes.has(shape(e)));
    expect([...new Set(missing)]).toEqual([]);
  });
});

/** `METHOD /a/{x}/b` and `METHOD /a/<id>/b` alike: every variable segment as `:`, a tail as `**`. */
function shape(endpoint: string): string {
  return endpoint.replace(/\/(\{[^}]+\}|<[^>]+>|:[A-Za-z_]\w*|\*)(?=\/|$)/g, "/:").replace(/\/\*\*$/, "/:");
}
