import { describe, expect, it } from "vitest";
import { PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { AsepAttributes } from "./security-error-handling.js";
import { ExceptionTranslationFilter } from "./exception-translation-filter.js";

class DriverOutage extends Error {}

const translate = (error: unknown) =>
  error instanceof DriverOutage
    ? new PlatformError("DEPENDENCY_UNAVAILABLE", "db is down", { details: { dependency: "db" } })
    : error;

function filterWith(translation?: (error: unknown) => unknown): ExceptionTranslationFilter {
  return new ExceptionTranslationFilter({
    handling: new AsepAttributes().toHandling(),
    loginPage: "/login",
    saveRequest: undefined,
    bearer: false,
    ...(translation ? { translate: translation } : {}),
  });
}

const exchange = () =>
  new HttpExchange({
    method: "GET",
    url: "/api/me",
    headers: { accept: "application/json" },
    remoteAddress: "10.0.0.1",
  });

describe("exception translation and the ErrorTranslator family", () => {
  it("answers an error the family claims with its code and status", async () => {
    const ex = exchange();
    await filterWith(translate).filter(ex, async () => {
      throw new DriverOutage("ECONNREFUSED");
    });
    expect(ex.response.status).toBe(503);
    expect(ex.response.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", dependency: "db" });
  });

  it("passes an unclaimed error (or any, without the family) through to the binding unchanged", async () => {
    const bug = new TypeError("bug");
    await expect(filterWith(translate).filter(exchange(), async () => Promise.reject(bug))).rejects.toBe(bug);
    const outage = new DriverOutage("down");
    await expect(filterWith().filter(exchange(), async () => Promise.reject(outage))).rejects.toBe(outage);
  });
});
