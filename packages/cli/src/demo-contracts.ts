import type { RouteContract } from "@keyward/core/web";
import { z } from "zod";

const Order = z.looseObject({
  id: z.string(),
  owner: z.string(),
  item: z.string(),
  quantity: z.number().int(),
});
const ORDER_ID = { pathParams: [{ name: "id", description: "The order's id" }] };

/** `POST /api/orders`: the item and how many (1 to 1000, default 1). */
export const PlaceOrderBody = z.looseObject({
  item: z.string().min(1).max(200),
  quantity: z.number().int().min(1).max(1000).optional(),
});

/** The demo's application routes' contracts (orders, audit, account security). */
export const DEMO_CONTRACTS = {
  list: {
    responses: { 200: { description: "The caller's orders (ROLE_ADMIN: all)", schema: z.array(Order) } },
  },
  place: {
    body: { schema: PlaceOrderBody, media: ["json"] },
    responses: { 201: { description: "The new order", schema: Order } },
    errors: ["VALIDATION_FAILED"],
  },
  get: {
    ...ORDER_ID,
    responses: { 200: { description: "The order", schema: Order } },
    errors: ["NOT_FOUND"],
  },
  cancel: {
    ...ORDER_ID,
    responses: { 200: { description: "Cancelled", schema: z.strictObject({ cancelled: z.literal(true) }) } },
    errors: ["NOT_FOUND"],
  },
  audit: {
    query: z.looseObject({ type: z.string().optional() }),
    responses: {
      200: {
        description: "The 100 most recent audit records",
        schema: z.array(z.looseObject({ type: z.string() })),
      },
    },
  },
  home: { responses: { 200: { description: "The home page", media: "html" } } },
  security: {
    responses: {
      200: {
        description: "The account's security settings (after a recent second factor)",
        schema: z.looseObject({ sensitive: z.string() }),
      },
    },
  },
  securityChange: {
    body: { schema: z.looseObject({}), media: ["json"], required: false },
    responses: {
      200: {
        description: "The change as received, and the Idempotency-Key echoed",
        schema: z.looseObject({
          sensitive: z.string(),
          changed: z.looseObject({}),
          idempotencyKey: z.string().nullable(),
        }),
      },
    },
  },
} as const satisfies Record<string, RouteContract>;
