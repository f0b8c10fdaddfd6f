import { UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, type RunningDemo, seedUser } from "../../support/demo-server.js";

// Issue #25 items 2 and 3: no write path (zero-trust actions, disable, delete, authorities) may leave
// no available administrator, decided in one atomic step, so parallel requests cannot both pass.

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });

/**
 * The last-administrator scenarios against a demo `start` builds (in memory or on MongoDB): two
 * administrators `ada` and `bob` besides the demo's, whose own administrators are taken out first.
 */
export function describeLastAdministrator(name: string, start: () => Promise<RunningDemo>): void {
  describe(`the last available administrator (${name})`, () => {
    let demo: RunningDemo;
    let ada = "";
    let bob = "";

    const tokenOf = async (username: string, password: string): Promise<string> => {
      const res = await fetch(`${demo.base}/api/login`, json("POST", { username, password }));
      expect(res.status, username).toBe(200);
      return ((await res.json()) as { accessToken: string }).accessToken;
    };
    const call = (token: string, method: string, path: string, body: unknown = {}) =>
      method === "GET"
        ? fetch(`${demo.base}${path}`, { headers: bearer(token) })
        : fetch(`${demo.base}${path}`, json(method, body, bearer(token)));

    beforeAll(async () => {
      demo = await start();
      const users = demo.platform.resolve(UserRepository);
      await seedUser(demo.platform, "ada", "ada-pass-1", ["ROLE_USER", "ROLE_ADMIN"]);
      await seedUser(demo.platform, "bob", "bob-pass-1", ["ROLE_USER", "ROLE_ADMIN"]);
      ada = (await users.findByUsername("ada"))!.id;
      bob = (await users.findByUsername("bob"))!.id;
      // The demo's own administrators step down, so ada and bob are the only two.
      const token = await tokenOf("ada", "ada-pass-1");
      for (const username of ["admin", "admin2"]) {
        const id = (await users.findByUsername(username))!.id;
        const res = await call(token, "PUT", `/admin/api/users/${id}/authorities`, {
          authorities: ["ROLE_USER"],
        });
        expect(res.status, username).toBe(200);
      }
    });
    afterAll(() => demo.close());

    it("two administrators blocking each other at once: one wins, the other answers 409, one stays", async () => {
      const [a, b] = await Promise.all([tokenOf("ada", "ada-pass-1"), tokenOf("bob", "bob-pass-1")]);
      const results = await Promise.all([
        call(a, "PUT", `/admin/api/zerotrust/actions/user:${bob}`, { action: "BLOCK" }),
        call(b, "PUT", `/admin/api/zerotrust/actions/user:${ada}`, { action: "BLOCK" }),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      const refused = results.find((r) => r.status !== 200)!;
      if (refused.status === 409) expect(await refused.json()).toMatchObject({ code: "LAST_ADMINISTRATOR" });
      else expect(refused.status).toBe(403); // the winner's BLOCK reached the loser first
      const winner = results[0]!.status === 200 ? a : b;
      const loserId = results[0]!.status === 200 ? bob : ada;
      const winnerId = winner === a ? ada : bob;
      // The winner cannot now block itself, nor ESCALATE itself: it is the last available one.
      for (const action of ["BLOCK", "ESCALATE"]) {
        const self = await call(winner, "PUT", `/admin/api/zerotrust/actions/user:${winnerId}`, { action });
        expect(self.status).toBe(409);
        expect(await self.json()).toMatchObject({ code: "LAST_ADMINISTRATOR" });
      }
      expect((await call(winner, "GET", "/admin/api/users?limit=1")).status).toBe(200);
      const lifted = await call(winner, "DELETE", `/admin/api/zerotrust/actions/user:${loserId}`);
      expect(lifted.status).toBe(200);
    });

    it("two administrators disabling each other at once: never both", async () => {
      const [a, b] = await Promise.all([tokenOf("ada", "ada-pass-1"), tokenOf("bob", "bob-pass-1")]);
      const results = await Promise.all([
        call(a, "POST", `/admin/api/users/${bob}/disable`),
        call(b, "POST", `/admin/api/users/${ada}/disable`),
      ]);
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      const users = demo.platform.resolve(UserRepository);
      const enabled = [await users.findById(ada), await users.findById(bob)].filter((u) => u?.enabled);
      expect(enabled).toHaveLength(1);
      const survivor =
        enabled[0]!.username === "ada"
          ? await tokenOf("ada", "ada-pass-1")
          : await tokenOf("bob", "bob-pass-1");
      const other = enabled[0]!.id === ada ? bob : ada;
      expect((await call(survivor, "POST", `/admin/api/users/${other}/enable`)).status).toBe(200);
    });

    it("taking ROLE_ADMIN from, or deleting, the last available administrator answers 409", async () => {
      const a = await tokenOf("ada", "ada-pass-1");
      const blocked = await call(a, "PUT", `/admin/api/zerotrust/actions/user:${bob}`, {
        action: "ESCALATE",
      });
      expect(blocked.status).toBe(200);
      // bob is under ESCALATE, so ada is the last available administrator: bob may not act, and
      // nobody may take ada's role, delete ada, or disable ada (another account acting for them).
      await seedUser(demo.platform, "cleo", "cleo-pass-1", ["ROLE_USER"]);
      const c = await tokenOf("cleo", "cleo-pass-1");
      expect((await call(c, "POST", `/admin/api/users/${ada}/disable`)).status).toBe(403);
      const role = await call(a, "PUT", `/admin/api/users/${ada}/authorities`, {
        authorities: ["ROLE_USER"],
      });
      expect(role.status).toBe(409);
      expect(await role.json()).toMatchObject({ code: "LAST_ADMINISTRATOR" });
      expect((await call(a, "DELETE", `/admin/api/zerotrust/actions/user:${bob}`)).status).toBe(200);
      const b = await tokenOf("bob", "bob-pass-1");
      expect(
        (await call(b, "PUT", `/admin/api/users/${ada}/authorities`, { authorities: ["ROLE_USER"] })).status,
      ).toBe(200);
      const last = await call(b, "DELETE", `/admin/api/users/${bob}`);
      expect(last.status).toBe(409); // oneself: CONFLICT
      const account = await demo.platform.resolve(UserRepository).findById(bob);
      expect(account?.authorities).toContain("ROLE_ADMIN");
    });
  });
}
