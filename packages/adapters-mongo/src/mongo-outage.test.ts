import { isPlatformError } from "@keyward/core/errors";
import {
  MongoClient,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
} from "mongodb";
import { describe, expect, it } from "vitest";
import { isMongoOutage, mongoErrorTranslator } from "./mongo-outage.js";

describe("MongoDB outage errors", () => {
  it("claims network, timeout, selection and shutting-down errors, not a refusal of the request", () => {
    expect(isMongoOutage(new MongoNetworkError("connect ECONNREFUSED 10.0.0.5:27017"))).toBe(true);
    expect(isMongoOutage(new MongoNetworkTimeoutError("timed out"))).toBe(true);
    expect(isMongoOutage(new MongoServerSelectionError("no server", { type: "Unknown" } as never))).toBe(
      true,
    );
    expect(isMongoOutage(new MongoServerError({ code: 91, errmsg: "shutdown in progress" }))).toBe(true);
    expect(isMongoOutage(new MongoServerError({ code: 10107, errmsg: "not primary" }))).toBe(true);
    expect(isMongoOutage(new MongoServerError({ code: 11000, errmsg: "E11000 duplicate key" }))).toBe(false);
    expect(isMongoOutage(new MongoServerError({ code: 2, errmsg: "bad value" }))).toBe(false);
    expect(isMongoOutage(new TypeError("bug"))).toBe(false);
    expect(isMongoOutage(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))).toBe(false);
  });

  it("claims a closed-client error the driver raises itself", async () => {
    const client = new MongoClient(
      "mongodb://127.0.0.1:9/?directConnection=true&serverSelectionTimeoutMS=200",
    );
    await client.close();
    const error = await client
      .db("x")
      .collection("y")
      .findOne({})
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isMongoOutage(error)).toBe(true);
  });

  it("translates to DEPENDENCY_UNAVAILABLE naming mongodb, with no driver message, and reports the outage", () => {
    let outages = 0;
    const translator = mongoErrorTranslator(() => outages++);
    const cause = new MongoNetworkError("connect ECONNREFUSED admin:s3cret@db.internal:27017");
    const translated = translator.translate(cause);
    expect(isPlatformError(translated, "DEPENDENCY_UNAVAILABLE")).toBe(true);
    expect(translated?.details).toEqual({ dependency: "mongodb" });
    expect(translated?.message).not.toMatch(/s3cret|db\.internal|ECONNREFUSED/);
    expect(translated?.cause).toBe(cause);
    expect(outages).toBe(1);
    expect(translator.translate(new MongoServerError({ code: 11000, errmsg: "dup" }))).toBeUndefined();
    expect(outages).toBe(1);
  });
});
