import type { Authentication } from "@keyward/core";
import { describe, expect, it } from "vitest";
import { OrderService } from "./demo-orders.js";

function caller(username: string, method: Authentication["method"], authorities = ["ROLE_USER"]) {
  return { userId: `id-${username}`, username, authorities, method, authenticatedAt: 0, factors: [] };
}

describe("OrderService.list", () => {
  const service = new OrderService();
  const user = caller("user", "form");
  const carol = caller("carol", "bearer");
  const a = service.place(user, "book", 1);
  const b = service.place(carol, "lamp", 2);

  it("gives a caller their own orders only, whether signed in by session or by bearer token", () => {
    expect(service.list(user)).toEqual([a]);
    expect(service.list(caller("user", "bearer"))).toEqual([a]);
    expect(service.list(carol)).toEqual([b]);
    expect(service.list(caller("carol", "form"))).toEqual([b]);
    expect(service.list(caller("nobody", "form"))).toEqual([]);
  });

  it("gives ROLE_ADMIN every order, by session or by bearer token", () => {
    expect(service.list(caller("admin", "form", ["ROLE_USER", "ROLE_ADMIN"]))).toEqual([a, b]);
    expect(service.list(caller("admin", "bearer", ["ROLE_ADMIN"]))).toEqual([a, b]);
  });

  it("answers copies: changing one changes nothing stored", () => {
    service.list(user)[0]!.item = "changed";
    expect(service.list(user)[0]!.item).toBe("book");
  });
});
