import { describe, expect, it } from "vitest";
import { HttpExchange } from "../../web/http-exchange.js";
import { AUTHENTICATION_ATTRIBUTE, type Authentication } from "../authentication/authentication.js";
import { MeEndpoint } from "./me-endpoint.js";

function ask(authentication: Authentication | undefined): { status: number; type?: string; body: unknown } {
  const exchange = new HttpExchange({
    method: "GET",
    url: "/api/me",
    headers: {},
    remoteAddress: "127.0.0.1",
  });
  if (authentication) exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
  const pending = new MeEndpoint("/api/me").handle(exchange);
  expect(pending).toBeUndefined();
  const { status, headers, body } = exchange.response;
  return { status, type: headers.get("content-type"), body: JSON.parse(String(body)) };
}

const alice = (): Authentication => ({
  userId: "u-alice",
  username: "alice",
  authorities: ["ROLE_USER"],
  method: "form",
  authenticatedAt: Date.UTC(2026, 10, 28, 12, 0, 0, 5),
  factors: [{ type: "pwd", at: 0 }],
});

function deepFreeze(a: Authentication): Authentication {
  for (const f of a.factors) Object.freeze(f);
  Object.freeze(a.factors);
  Object.freeze(a.authorities);
  return Object.freeze(a);
}

describe("MeEndpoint", () => {
  it("answers the caller's profile as JSON, no-store", () => {
    const answer = ask(alice());
    expect(answer).toEqual({
      status: 200,
      type: "application/json; charset=utf-8",
      body: {
        id: "u-alice",
        username: "alice",
        authorities: ["ROLE_USER"],
        authenticatedBy: "session",
        method: "form",
        authenticatedAt: "2026-11-28T12:00:00.005Z",
        factors: ["pwd"],
      },
    });
  });

  it("answers what a caller that is not frozen holds now, never an earlier answer", () => {
    const a = alice();
    expect(ask(a).body).toMatchObject({ authorities: ["ROLE_USER"] });
    (a.authorities as string[]).push("ROLE_ADMIN");
    (a as { username: string }).username = "alice2";
    expect(ask(a).body).toMatchObject({ username: "alice2", authorities: ["ROLE_USER", "ROLE_ADMIN"] });
  });

  it("answers the same for a deeply frozen caller every time, and each frozen caller its own", () => {
    const a = deepFreeze(alice());
    const b = deepFreeze({ ...alice(), userId: "u-bob", username: "bob", method: "passkey" });
    expect(ask(a)).toEqual(ask(alice()));
    expect(ask(a)).toEqual(ask(alice()));
    expect(ask(b).body).toMatchObject({ id: "u-bob", username: "bob", method: "passkey" });
    expect(ask(a).body).toMatchObject({ id: "u-alice", username: "alice" });
  });

  it("answers a frozen caller with a factor that is not frozen afresh each time", () => {
    const a = alice();
    const factor: { type: "pwd" | "otp"; at: number } = { type: "pwd", at: 0 };
    const caller = Object.freeze({
      ...a,
      authorities: Object.freeze([...a.authorities]),
      factors: Object.freeze([factor]),
    });
    expect(ask(caller).body).toMatchObject({ factors: ["pwd"] });
    factor.type = "otp";
    expect(ask(caller).body).toMatchObject({ factors: ["otp"] });
  });
});
