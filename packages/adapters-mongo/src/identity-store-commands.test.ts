import { CryptoIdGenerator } from "@keyward/core/adapter-kit";
import { ManualClock } from "@keyward/core/testing";
import type { CommandStartedEvent, Db } from "mongodb";
import { describe, expect, it } from "vitest";
import { describeAgainstMongo } from "../test-support/describe-against-mongo.js";
import { MongoLoginThrottle } from "./mongo-login-throttle.js";
import { MongoOneTimeTokenService } from "./mongo-one-time-token-service.js";
import { MongoOttGenerationLimiter } from "./mongo-ott-generation-limiter.js";
import { MongoPasskeyCredentialRepository } from "./mongo-passkey-credential-repository.js";
import { MongoWebAuthnChallengeStore } from "./mongo-webauthn-challenge-store.js";

/** The commands `run` sends to `db` (the target's client monitors commands). */
async function commandsOf(db: Db, run: () => Promise<unknown>): Promise<string[]> {
  const names: string[] = [];
  const listener = (e: CommandStartedEvent) => {
    if (e.databaseName === db.databaseName) names.push(e.commandName);
  };
  db.client.on("commandStarted", listener);
  try {
    await run();
  } finally {
    db.client.off("commandStarted", listener);
  }
  return names;
}

// The round trips docs/mongodb.md promises for the identity stores' hot paths.
describeAgainstMongo("identity store round trips", (freshDb) => {
  const clock = new ManualClock(1_000);
  const key = { username: "alice", remoteAddress: "203.0.113.10" };

  it("passkeys: one command per method on the hot path", async () => {
    const db = await freshDb();
    const repo = new MongoPasskeyCredentialRepository({ db, clock });
    const credential = {
      id: "Y3JlZA",
      userId: "u1",
      userHandle: "aA",
      publicKey: "cEs",
      counter: 0,
      transports: [],
      deviceType: "singleDevice" as const,
      backedUp: false,
      aaguid: "0",
      label: "Key",
    };
    expect(await commandsOf(db, () => repo.create(credential))).toEqual(["insert"]);
    expect(await commandsOf(db, () => repo.findById(credential.id))).toEqual(["find"]);
    expect(await commandsOf(db, () => repo.updateCounter(credential.id, 1, 1, 2_000))).toEqual([
      "findAndModify",
    ]);
    expect(await commandsOf(db, () => repo.saveUserHandle("u1", "aA"))).toEqual(["findAndModify"]);
    expect(await commandsOf(db, () => repo.userIdForHandle("aA"))).toEqual(["find"]);
  });

  it("challenges: save and take are one command each", async () => {
    const db = await freshDb();
    const store = new MongoWebAuthnChallengeStore({ db, clock });
    const challenge = { id: "c", challenge: "Y2g", purpose: "authentication" as const, expiresAt: 9_000 };
    expect(await commandsOf(db, () => store.save(challenge))).toEqual(["insert"]);
    expect(await commandsOf(db, () => store.take("c", "authentication"))).toEqual(["findAndModify"]);
  });

  it("one-time tokens: generate 1, consume 1 when live, 2 when not, 0 for a malformed value", async () => {
    const db = await freshDb();
    const service = new MongoOneTimeTokenService({ db, clock, ids: new CryptoIdGenerator() });
    let value = "";
    expect(
      await commandsOf(db, async () => {
        value = (await service.generate({ username: "alice" })).getTokenValue();
      }),
    ).toEqual(["update"]);
    expect(await commandsOf(db, () => service.consume({ tokenValue: value }))).toEqual(["findAndModify"]);
    expect(await commandsOf(db, () => service.consume({ tokenValue: value }))).toEqual([
      "findAndModify",
      "update",
    ]);
    expect(await commandsOf(db, () => service.consume({ tokenValue: "short" }))).toEqual([]);
  });

  it("login throttle: check, recordFailure, recordSuccess and clearAccount are one command each", async () => {
    const db = await freshDb();
    const throttle = new MongoLoginThrottle({ db, clock });
    expect(await commandsOf(db, () => throttle.recordFailure(key))).toEqual(["update"]);
    expect(await commandsOf(db, () => throttle.recordFailure(key))).toEqual(["update"]);
    expect(await commandsOf(db, () => throttle.check(key))).toEqual(["find"]);
    expect(await commandsOf(db, () => throttle.recordSuccess(key))).toEqual(["delete"]);
    expect(await commandsOf(db, () => throttle.clearAccount("alice"))).toEqual(["delete"]);
  });

  describe("OTT generation limiter", () => {
    it("sends one command for an allowed request, four for one refused by one counter", async () => {
      const db = await freshDb();
      const limiter = new MongoOttGenerationLimiter({ db, clock, maxPerUser: 1 });
      expect(await commandsOf(db, () => limiter.acquire(key))).toEqual(["update"]);
      const other = { ...key, remoteAddress: "198.51.100.1" };
      expect(await commandsOf(db, () => limiter.acquire(other))).toEqual([
        "update",
        "update",
        "delete",
        "find",
      ]);
    });
  });
});
