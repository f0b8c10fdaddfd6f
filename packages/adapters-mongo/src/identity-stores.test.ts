import "reflect-metadata";
import { createIdentityPlugin, createPlatform, type Platform } from "@keyward/core";
import {
  LoginThrottle,
  OneTimeTokenService,
  OttGenerationLimiter,
  PasskeyCredentialRepository,
  PasswordResetTokenService,
  WebAuthnChallengeStore,
} from "@keyward/core/ports";
import { MongoClient } from "mongodb";
import type { InjectionToken } from "tsyringe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWireDouble, type WireDouble } from "../test-support/index.js";
import { IDENTITY_PROPERTY_KEYS } from "./identity-settings.js";
import { mongoPlugin } from "./mongo-plugin.js";

let double: WireDouble;
let client: MongoClient;
beforeAll(async () => {
  double = await startWireDouble({ ttlMonitorIntervalMs: 0 });
  client = await new MongoClient(double.uri).connect();
});
afterAll(async () => {
  await client?.close();
  await double?.close();
});

function platform(properties: Record<string, unknown> = {}, withMongo = true): Platform {
  const plugins = [
    createIdentityPlugin(),
    ...(withMongo ? [mongoPlugin({ client, dbName: "identity_stores" })] : []),
  ];
  return createPlatform({ plugins, properties, env: {} });
}

describe("identity stores registered by mongoPlugin", () => {
  it("replace the identity module's stateful defaults", () => {
    const p = platform();
    const tokens: InjectionToken<object>[] = [
      PasskeyCredentialRepository,
      WebAuthnChallengeStore,
      OneTimeTokenService,
      PasswordResetTokenService,
      OttGenerationLimiter,
      LoginThrottle,
    ];
    const names = tokens.map((token) => p.resolve(token).constructor.name);
    expect(names).toEqual([
      "MongoPasskeyCredentialRepository",
      "MongoWebAuthnChallengeStore",
      "MongoOneTimeTokenService",
      "MongoOneTimeTokenService",
      "MongoOttGenerationLimiter",
      "MongoLoginThrottle",
    ]);
  });

  it("read only property keys the identity plugin declares", () => {
    const declared = (createIdentityPlugin().properties ?? []).map((d) => d.key);
    for (const key of Object.values(IDENTITY_PROPERTY_KEYS)) expect(declared).toContain(key);
  });

  it("honour the configured throttle, limiter and token lifetime", async () => {
    const p = platform({
      [IDENTITY_PROPERTY_KEYS.throttleMaxPerAccountAndIp]: 1,
      [IDENTITY_PROPERTY_KEYS.ottMaxPerUser]: 1,
      [IDENTITY_PROPERTY_KEYS.ottTokenTtl]: "PT10M",
    });
    const key = { username: `carol-${Date.now()}`, remoteAddress: "203.0.113.50" };
    await p.resolve(LoginThrottle).recordFailure(key);
    expect(await p.resolve(LoginThrottle).check(key)).toMatchObject({ allowed: false, scope: "account-ip" });
    expect(await p.resolve(OttGenerationLimiter).acquire(key)).toEqual({ allowed: true });
    expect(await p.resolve(OttGenerationLimiter).acquire(key)).toMatchObject({
      allowed: false,
      scope: "user",
    });
    const token = await p.resolve(OneTimeTokenService).generate({ username: key.username });
    expect(token.expiresAt - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(token.expiresAt - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  it("give reset links the lifetime of the core's default reset-token service, apart from magic links", async () => {
    const mongo = platform();
    const memory = platform({}, false);
    const [a, b] = await Promise.all([
      mongo.resolve(PasswordResetTokenService).generate({ username: "dora" }),
      memory.resolve(PasswordResetTokenService).generate({ username: "dora" }),
    ]);
    expect(Math.abs(a.expiresAt - b.expiresAt)).toBeLessThan(5_000);
    expect(
      await mongo.resolve(OneTimeTokenService).consume({ tokenValue: a.getTokenValue() }),
    ).toBeUndefined();
    expect(
      (await mongo.resolve(PasswordResetTokenService).consume({ tokenValue: a.getTokenValue() }))?.username,
    ).toBe("dora");
  });
});
