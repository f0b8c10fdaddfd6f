import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../kernel/clock.js";
import { InMemoryChangeCounters } from "../../../kernel/coordination/in-memory-change-counters.js";
import { CryptoIdGenerator } from "../../../kernel/id-generator.js";
import { user } from "../../authentication/authentication.fixture.js";
import { InMemoryUserRepository } from "../in-memory-user-repository.js";
import { ACCOUNT_STANDING_TOPIC, STANDING_DOES_NOT_HOLD, STANDING_HOLDS } from "./account-standing.js";
import { CachedAccountStanding } from "./cached-account-standing.js";

async function setup() {
  const clock = new ManualClock(1_000);
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock });
  const counters = new InMemoryChangeCounters();
  let reads = 0;
  const counted = {
    findById: (id: string) => {
      reads++;
      return users.findById(id);
    },
  };
  const standing = new CachedAccountStanding({ users: counted, counters, clock, ttlMs: 30_000 });
  const account = await users.create({ username: "kim", authorities: ["ROLE_USER"] });
  const signIn = user(account.id, "kim");
  return { clock, users, counters, standing, account, signIn, reads: () => reads };
}

describe("CachedAccountStanding", () => {
  it("holds while the account is enabled and its stamp is the sign-in's; one read per cache period", async () => {
    const { standing, signIn, reads, clock } = await setup();
    expect(await standing.holds(signIn)).toBe(true);
    expect(await standing.holds(signIn)).toBe(true);
    expect(reads()).toBe(1);
    clock.advance(30_000);
    expect(await standing.holds(signIn)).toBe(true);
    expect(reads()).toBe(2);
  });

  it("stops holding after a stamp change, a disable or a delete, once told (and bumps the counter)", async () => {
    const { standing, signIn, users, account, counters } = await setup();
    expect(await standing.holds(signIn)).toBe(true);
    const stamped = await users.update({ ...account, securityStamp: "s-2" });
    expect(await standing.holds(signIn)).toBe(true); // cached until told
    await standing.changed(account.id);
    expect((await counters.read([ACCOUNT_STANDING_TOPIC]))[ACCOUNT_STANDING_TOPIC]).toBe(1);
    expect(await standing.holds(signIn)).toBe(false);
    expect(await standing.holds({ ...signIn, securityStamp: "s-2" })).toBe(true);
    await users.update({ ...stamped, enabled: false });
    standing.forgetAll();
    expect(await standing.holds({ ...signIn, securityStamp: "s-2" })).toBe(false);
    await users.delete(account.id);
    standing.forget(account.id);
    expect(await standing.holds({ ...signIn, securityStamp: "s-2" })).toBe(false);
  });

  it("does not cache a read that raced a change", async () => {
    const { users, counters, clock, account, signIn } = await setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = {
      findById: async (id: string) => {
        const found = await users.findById(id);
        await gate;
        return found;
      },
    };
    const standing = new CachedAccountStanding({ users: slow, counters, clock });
    const pending = standing.holds(signIn);
    await users.update({ ...account, securityStamp: "s-3" });
    standing.forget(account.id);
    release();
    expect(await pending).toBe(true); // read before the change
    const fresh = new CachedAccountStanding({ users, counters, clock });
    expect(await fresh.holds(signIn)).toBe(false);
    expect(await standing.holds(signIn)).toBe(false); // the raced read was not kept
  });

  it("answers a fresh cached entry with STANDING_HOLDS or STANDING_DOES_NOT_HOLD (no async layer); a bad call rejects, never throws", async () => {
    const { standing, signIn, reads } = await setup();
    const first = standing.holds(signIn);
    expect(await first).toBe(true);
    expect(standing.holds(signIn)).toBe(STANDING_HOLDS);
    expect(standing.holds({ ...signIn, securityStamp: "other" })).toBe(STANDING_DOES_NOT_HOLD);
    expect(await STANDING_HOLDS).toBe(true);
    expect(await STANDING_DOES_NOT_HOLD).toBe(false);
    expect(reads()).toBe(1);
    const bad = standing.holds(undefined as unknown as typeof signIn);
    await expect(bad).rejects.toBeInstanceOf(TypeError);
  });
});
