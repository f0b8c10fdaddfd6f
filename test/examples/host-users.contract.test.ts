import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import { describeUserRepositoryContract } from "@keyward/core/testing";
import { describe, expect, it } from "vitest";
import { HostUsers } from "../../examples/h3-host/src/host-users.js";
import { existingUsers } from "../../examples/h3-host/src/host-users-data.js";

// The example host's own UserRepository passes the port's contract suite, as every adapter must.
describeUserRepositoryContract(
  "the example host's HostUsers",
  () => new HostUsers({ ids: new CryptoIdGenerator(), clock: new SystemClock() }),
);

describe("HostUsers: the host's own records and e-mail addresses", () => {
  const users = () =>
    new HostUsers({ ids: new CryptoIdGenerator(), clock: new SystemClock(), records: existingUsers() });

  it("hands out the records it was given, e-mail address included, matched as sign-in matches names", async () => {
    expect(await users().findByUsername(" ROOT ")).toMatchObject({
      id: "u-root",
      username: "root",
      email: "root@example.test",
      authorities: ["ROLE_USER", "ROLE_ADMIN"],
    });
  });

  it("keeps e-mail addresses unique case-insensitively (CONFLICT), and frees one with its account", async () => {
    const store = users();
    await expect(store.create({ username: "eve", email: "ANA@example.test" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const bo = (await store.findByUsername("bo"))!;
    await expect(store.update({ ...bo, email: "Root@Example.test" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await store.delete("u-ana");
    expect(await store.create({ username: "eve", email: "ana@example.test" })).toMatchObject({
      email: "ana@example.test",
    });
  });
});
