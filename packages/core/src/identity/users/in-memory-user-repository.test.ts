import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator, type IdGenerator } from "../../kernel/id-generator.js";
import { InMemoryUserRepository } from "./in-memory-user-repository.js";
import { describeUserRepositoryContract } from "./user-repository.contract.js";

describeUserRepositoryContract(
  "InMemoryUserRepository",
  () => new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock: new ManualClock() }),
);

describe("InMemoryUserRepository", () => {
  it("takes ids from the IdGenerator and createdAt from the Clock", async () => {
    let n = 0;
    const ids: IdGenerator = { id: () => `user-${++n}`, secret: () => "s" };
    const clock = new ManualClock(1_000);
    const repo = new InMemoryUserRepository({ ids, clock });
    expect(await repo.create({ username: "a" })).toMatchObject({ id: "user-1", createdAt: 1_000 });
    clock.advance(5);
    const b = await repo.create({ username: "b" });
    expect(b).toMatchObject({ id: "user-2", createdAt: 1_005 });
    clock.advance(5);
    expect((await repo.update(b)).createdAt).toBe(1_005);
  });
});
