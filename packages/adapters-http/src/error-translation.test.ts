import { PlatformError } from "@keyward/core/errors";
import { ErrorTranslator } from "@keyward/core/ports";
import { describe, expect, it } from "vitest";
import { startTestServer } from "./test-support.js";

class DriverOutage extends Error {}

describe("the ErrorTranslator family at the binding's last resort", () => {
  it("answers a claimed error with its translation (503 DEPENDENCY_UNAVAILABLE), leaving others a generic 500", async () => {
    const server = await startTestServer((http) => {
      http.routes.add({
        method: "GET",
        path: "/down",
        description: "throws a driver error",
        handler: () => {
          throw new DriverOutage("connect ECONNREFUSED admin:s3cret@db.internal:27017");
        },
      });
      http.routes.add({
        method: "GET",
        path: "/bug",
        description: "throws an unknown error",
        handler: () => {
          throw new TypeError("bug");
        },
      });
    });
    server.platform.container.register(ErrorTranslator, {
      useValue: {
        id: "db",
        translate: (error) =>
          error instanceof DriverOutage
            ? new PlatformError("DEPENDENCY_UNAVAILABLE", "The database is unavailable", {
                details: { dependency: "db" },
              })
            : undefined,
      },
    });
    try {
      const down = await server.fetch("/down");
      expect(down.status).toBe(503);
      const body = await down.text();
      expect(JSON.parse(body)).toEqual({
        code: "DEPENDENCY_UNAVAILABLE",
        message: "The database is unavailable",
        dependency: "db",
      });
      expect(body).not.toContain("s3cret");
      expect(server.logger.entries.filter((e) => e.level === "error")).toEqual([]);
      const bug = await server.fetch("/bug");
      expect(bug.status).toBe(500);
      expect(await bug.json()).toMatchObject({ code: "INTERNAL_ERROR" });
    } finally {
      await server.close();
    }
  });
});
