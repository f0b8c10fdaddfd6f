import { describe, expect, it } from "vitest";
import { InProcessEventBus } from "../../kernel/event-bus.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import { user } from "../authentication/authentication.fixture.js";
import { SIGN_IN_COMPLETED_EVENT } from "../events/identity-events.js";
import type { SecurityContextRepository } from "./security-context-repository.js";
import { signInPublishingRepository } from "./sign-in-publishing-repository.js";

function inner(save: (a: Authentication) => Promise<void>): SecurityContextRepository {
  return { name: "memory", load: async () => undefined, save: (_x, a) => save(a), clear: async () => {} };
}

const exchange = () =>
  new HttpExchange({
    method: "POST",
    url: "/login",
    headers: {},
    remoteAddress: "203.0.113.1",
    readBody: async () => "",
  });

function listening(): { bus: InProcessEventBus; published: unknown[] } {
  const bus = new InProcessEventBus();
  const published: unknown[] = [];
  bus.on(SIGN_IN_COMPLETED_EVENT, (e) => {
    published.push(e.payload);
  });
  return { bus, published };
}

describe("signInPublishingRepository", () => {
  it("publishes the stored sign-in after the inner save, with the method and client address", async () => {
    const { bus, published } = listening();
    const order: string[] = [];
    bus.on(SIGN_IN_COMPLETED_EVENT, () => {
      order.push("published");
    });
    const repo = signInPublishingRepository(
      inner(async () => {
        order.push("saved");
      }),
      bus,
    );
    const authentication = user("u1", "alice");
    await repo.save(exchange(), authentication);
    await Promise.resolve();
    expect(order).toEqual(["saved", "published"]);
    expect(published).toEqual([
      {
        userId: authentication.userId,
        username: authentication.username,
        method: authentication.method,
        remoteAddress: "203.0.113.1",
      },
    ]);
  });

  it("publishes nothing when the inner save refuses or fails", async () => {
    const { bus, published } = listening();
    const repo = signInPublishingRepository(
      inner(async () => {
        throw new PlatformError("ZERO_TRUST_BLOCKED", "blocked");
      }),
      bus,
    );
    await expect(repo.save(exchange(), user("u1", "alice"))).rejects.toMatchObject({
      code: "ZERO_TRUST_BLOCKED",
    });
    await Promise.resolve();
    expect(published).toEqual([]);
  });

  it("is the inner repository itself without a bus", () => {
    const plain = inner(async () => {});
    expect(signInPublishingRepository(plain, undefined)).toBe(plain);
  });
});
