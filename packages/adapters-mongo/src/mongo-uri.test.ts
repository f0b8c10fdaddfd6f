import { describe, expect, it } from "vitest";
import { dbNameOf, describeMongoUri, OWNED_CLIENT_DEFAULTS, ownedClientOptions } from "./mongo-uri.js";

describe("connection strings", () => {
  it("describes hosts and database without user, password or options", () => {
    expect(
      describeMongoUri("mongodb://admin:s3cr%40t@db1:27017,db2:27017/shop?authSource=admin&tls=true"),
    ).toBe("db1:27017,db2:27017/shop");
    expect(describeMongoUri("mongodb+srv://u:p@cluster0.example.net/?retryWrites=true")).toBe(
      "cluster0.example.net/platform",
    );
    expect(describeMongoUri("mongodb://127.0.0.1:27017", "other")).toBe("127.0.0.1:27017/other");
    expect(describeMongoUri("not a uri with secret")).toBe("(unparsable connection string)/platform");
  });

  it("reads the database from the path, else platform", () => {
    expect(dbNameOf("mongodb://h/my%20db?x=1")).toBe("my db");
    expect(dbNameOf("mongodb://h/")).toBe("platform");
    expect(dbNameOf("mongodb://h")).toBe("platform");
  });

  it("sets the plugin's timeouts only where the string does not set its own", () => {
    expect(ownedClientOptions("mongodb://h/db")).toEqual(OWNED_CLIENT_DEFAULTS);
    expect(ownedClientOptions("mongodb://h/db?serverselectiontimeoutms=500&socketTimeoutMS=0")).toEqual({
      connectTimeoutMS: OWNED_CLIENT_DEFAULTS.connectTimeoutMS,
    });
  });
});
