import { describe, expect, it } from "vitest";
import { ErrorTranslator } from "../kernel/error-translator.js";
import { createPlatform } from "../kernel/platform.js";
import { PlatformError } from "../kernel/platform-error.js";
import { errorTranslation } from "./error-translation.js";

class DriverOutage extends Error {}

const outage: ErrorTranslator = {
  id: "db",
  translate: (error) =>
    error instanceof DriverOutage
      ? new PlatformError("DEPENDENCY_UNAVAILABLE", "db is down", { details: { dependency: "db" } })
      : undefined,
};
const broken: ErrorTranslator = {
  id: "broken",
  translate: () => {
    throw new Error("translator bug");
  },
};

function platformWith(...members: ErrorTranslator[]) {
  return createPlatform({
    plugins: [
      {
        id: "members",
        register(ctx) {
          for (const member of members) ctx.registerMember(ErrorTranslator, { useValue: member });
        },
      },
    ],
  });
}

describe("errorTranslation", () => {
  it("turns an error a member claims into that member's PlatformError", () => {
    const translate = errorTranslation(platformWith(broken, outage).container);
    const translated = translate(new DriverOutage("connect ECONNREFUSED user:pw@db:27017"));
    expect(translated).toBeInstanceOf(PlatformError);
    expect(translated).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", details: { dependency: "db" } });
  });

  it("leaves PlatformErrors and unclaimed errors as they were (a throwing member claims nothing)", () => {
    const translate = errorTranslation(platformWith(broken, outage).container);
    const own = new PlatformError("NOT_FOUND", "Not found");
    const other = new TypeError("bug");
    expect(translate(own)).toBe(own);
    expect(translate(other)).toBe(other);
  });

  it("is the identity without members or without a container", () => {
    const error = new DriverOutage("down");
    expect(errorTranslation(platformWith().container)(error)).toBe(error);
    expect(errorTranslation(undefined)(error)).toBe(error);
  });
});
