import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryUserRepository } from "../users/in-memory-user-repository.js";
import { addressedDelivery } from "./addressed-delivery.js";
import type { OneTimeTokenMessage } from "./one-time-token-delivery.js";

function message(username: string): OneTimeTokenMessage {
  return {
    username,
    to: username,
    token: "t0k3n",
    link: "http://x.test/l?token=t0k3n",
    channel: "email",
    at: 1,
  };
}

async function setUp() {
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock: new ManualClock() });
  await users.create({ username: "Alice", email: "Alice@example.com" });
  await users.create({ username: "bob" });
  const sent: OneTimeTokenMessage[] = [];
  const delivery = addressedDelivery({ deliver: async (m) => void sent.push(m) }, users);
  return { users, sent, delivery };
}

describe("addressedDelivery", () => {
  it("sends to the account's address when it has one, the rest of the message unchanged", async () => {
    const { sent, delivery } = await setUp();
    await delivery.deliver(message("alice"));
    expect(sent).toEqual([{ ...message("alice"), to: "Alice@example.com" }]);
  });

  it("sends to the username, as given, for an account without an address", async () => {
    const { sent, delivery } = await setUp();
    const original = message("bob");
    await delivery.deliver(original);
    expect(sent).toEqual([original]);
    expect(sent[0]).toBe(original);
  });

  it("sends to the username for an unknown username (the caller decided to deliver)", async () => {
    const { sent, delivery } = await setUp();
    await delivery.deliver(message("nobody"));
    expect(sent).toEqual([message("nobody")]);
  });

  it("reads the address at delivery time: a change or a clear applies to the next message", async () => {
    const { users, sent, delivery } = await setUp();
    const bob = (await users.findByUsername("bob"))!;
    const set = await users.update({ ...bob, email: "bob@example.org" });
    await delivery.deliver(message("BOB"));
    await users.update({ ...set, email: undefined });
    await delivery.deliver(message("bob"));
    expect(sent.map((m) => m.to)).toEqual(["bob@example.org", "bob"]);
  });

  it("passes a failure of the delivery it wraps on to its caller", async () => {
    const { users } = await setUp();
    const failing = addressedDelivery({ deliver: () => Promise.reject(new Error("smtp down")) }, users);
    await expect(failing.deliver(message("alice"))).rejects.toThrow("smtp down");
  });
});
