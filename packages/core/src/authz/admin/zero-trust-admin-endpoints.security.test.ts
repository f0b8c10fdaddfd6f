import { serveRoutes } from "../../identity/chain/chain-routes.test-support.js";
import { describe, expect, it, vi } from "vitest";
import { setCurrentAuthentication } from "../../identity/authentication/authentication.js";
import { InMemoryUserRepository } from "../../identity/users/in-memory-user-repository.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { ROOT, setup } from "../zerotrust/zero-trust.fixture.js";
import { ZeroTrustActionService } from "../zerotrust/zero-trust-action-service.js";
import { ZeroTrustAdminEndpoints } from "./zero-trust-admin-endpoints.js";

const BASE = "/admin/api/zerotrust/actions";

// Subjects must name someone: `user:<id>` of an account, `username:<name>` (resolved to the id) or a
// well-formed session handle. A subject naming nobody never answers 200.
async function admin() {
  const s = setup();
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock: s.clock });
  const alice = await users.create({ username: "alice", authorities: ["ROLE_USER"] });
  const service = new ZeroTrustActionService(s.store, s.resolver, s.audit, users);
  const filter = new ZeroTrustAdminEndpoints({ service, audit: s.audit });
  const send = async (method: string, subjectPath: string, body?: unknown) => {
    const x = new HttpExchange({
      method,
      url: subjectPath === "" ? BASE : `${BASE}/${subjectPath}`,
      headers: {
        accept: "application/json",
        "content-type": body === undefined ? undefined : "application/json",
      },
      remoteAddress: "203.0.113.7",
      readBody: async () => (body === undefined ? "" : JSON.stringify(body)),
    });
    setCurrentAuthentication(x, ROOT);
    const next = vi.fn(async () => {});
    await serveRoutes(filter.routes("authz.admin"), x, next);
    expect(next).not.toHaveBeenCalled();
    return x.response.body as Record<string, unknown>;
  };
  return { ...s, users, alice, service, send };
}

describe("ZeroTrustAdminEndpoints subjects", () => {
  it("refuses PUT user:<id> naming no account with 404 SUBJECT_NOT_FOUND, storing nothing", async () => {
    const { send, memory } = await admin();
    await expect(send("PUT", "user:no-such-id", { action: "BLOCK" })).rejects.toMatchObject({
      code: "SUBJECT_NOT_FOUND",
      details: { fields: ["subject"] },
    });
    expect(await memory.list()).toEqual([]);
  });

  it("does not take user:<username>: 404 SUBJECT_NOT_FOUND pointing at username:<name>", async () => {
    const { send, memory } = await admin();
    const refusal = await send("PUT", "user:alice", { action: "BLOCK" }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: "SUBJECT_NOT_FOUND" });
    expect(String((refusal as Error).message)).toContain("username:<name>");
    expect(await memory.list()).toEqual([]);
  });

  it("takes user:<id> of an account and username:<name>, storing both under user:<id>", async () => {
    const { send, memory, alice } = await admin();
    expect(await send("PUT", `user:${alice.id}`, { action: "CHALLENGE" })).toMatchObject({
      subject: `user:${alice.id}`,
      action: "CHALLENGE",
    });
    expect(await send("PUT", "username:ALICE", { action: "BLOCK" })).toMatchObject({
      subject: `user:${alice.id}`,
      action: "BLOCK",
      version: 2,
    });
    expect((await memory.list()).map((r) => r.subject)).toEqual([`user:${alice.id}`]);
    expect(await send("GET", "username%3Aalice")).toMatchObject({ subject: `user:${alice.id}` });
    expect(await send("DELETE", "username:alice")).toEqual({ subject: `user:${alice.id}`, cleared: true });
  });

  it("refuses username:<name> naming no account on every method with 404 SUBJECT_NOT_FOUND", async () => {
    const { send } = await admin();
    for (const method of ["GET", "PUT", "DELETE"]) {
      await expect(send(method, "username:nobody", { action: "BLOCK" }), method).rejects.toMatchObject({
        code: "SUBJECT_NOT_FOUND",
      });
    }
  });

  it("still clears a record whose user was deleted (DELETE takes any well-formed user:<id>)", async () => {
    const { send, users, alice, memory } = await admin();
    await send("PUT", `user:${alice.id}`, { action: "BLOCK" });
    await users.delete(alice.id);
    expect(await send("DELETE", `user:${alice.id}`)).toEqual({ subject: `user:${alice.id}`, cleared: true });
    expect(await memory.list()).toEqual([]);
  });

  it.each([
    ["an empty subject", ""],
    ["an empty id", "user:"],
    ["an empty username", "username:"],
    ["a blank username", "username:%20%20"],
    ["an unknown prefix", "group:admins"],
    ["no prefix", "alice"],
    ["a control character", "user:a%00b"],
    ["a newline in a username", "username:ali%0Ace"],
    ["a format character", "user:a%E2%80%AEb"],
    ["an over-long id", `user:${"x".repeat(201)}`],
    ["an over-long username", `username:${"x".repeat(201)}`],
    ["broken URL encoding", "user%3"],
  ])("refuses %s with 400 VALIDATION_FAILED, storing nothing", async (_, subject) => {
    const { send, memory } = await admin();
    // GET of an empty subject is the list.
    for (const method of subject === "" ? ["PUT", "DELETE"] : ["PUT", "GET", "DELETE"]) {
      await expect(send(method, subject, { action: "BLOCK" }), `${method} ${subject}`).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    }
    expect(await memory.list()).toEqual([]);
  });

  it("the service refuses a user:<id> naming no account too, whoever writes it", async () => {
    const { service, memory } = await admin();
    await expect(service.set("user:ghost", "BLOCK", { source: "host" })).rejects.toMatchObject({
      code: "SUBJECT_NOT_FOUND",
    });
    expect(await memory.list()).toEqual([]);
  });
});
