import type { Authentication } from "@keyward/core";
import { PlatformError } from "@keyward/core/errors";
import { Protectable } from "@keyward/core/authz";

/** Who sees every order in `OrderService.list` (others see their own). */
export const ORDERS_ADMIN_AUTHORITY = "ROLE_ADMIN";

/** One order of the demo's sample API. */
export interface DemoOrder {
  id: string;
  /** The username that placed it: the `ownerField` of `OrderService.get`. */
  owner: string;
  item: string;
  quantity: number;
  createdAt: number;
}

/**
 * The demo's order service, a plain class whose `get` is method-protected: METHOD policies on
 * `OrderService.get(string)` decide before the call, and the owner (or ROLE_ADMIN) may always read
 * their order, decided on the returned entity. Registered through `MethodSecurity.register`.
 */
export class OrderService {
  private readonly orders = new Map<string, DemoOrder>();
  private seq = 0;

  /**
   * The orders `caller` may see: their own, or every order for ROLE_ADMIN. The URL policies decide who
   * may list at all; which rows a caller gets is decided here, where the data is.
   */
  list(caller: Authentication): DemoOrder[] {
    const all = [...this.orders.values()];
    const mine = caller.authorities.includes(ORDERS_ADMIN_AUTHORITY)
      ? all
      : all.filter((o) => o.owner === caller.username);
    return mine.map((o) => ({ ...o }));
  }

  /** One order; the caller must own it, be an admin, or be granted by a METHOD policy. */
  @Protectable({
    ownerField: "owner",
    parameterTypes: ["string"],
    returnType: "DemoOrder",
    source: "packages/cli/src/demo-orders.ts",
  })
  get(id: string): DemoOrder {
    const order = this.orders.get(id);
    if (!order) throw new PlatformError("NOT_FOUND", "No such order");
    return { ...order };
  }

  /** Places an order for `owner`. */
  place(owner: Authentication, item: string, quantity: number): DemoOrder {
    const order: DemoOrder = {
      id: String(++this.seq),
      owner: owner.username,
      item,
      quantity,
      createdAt: Date.now(),
    };
    this.orders.set(order.id, order);
    return { ...order };
  }

  /** Cancels (deletes) an order; true when it existed. */
  cancel(id: string): boolean {
    return this.orders.delete(id);
  }
}
