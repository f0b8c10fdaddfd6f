import { describe, expect, it } from "vitest";
import { articleFor, pluralOf, singularOf, wordsOf } from "./english-nouns.js";
import { OfflineResourceNamer, offlineResourceName } from "./offline-resource-namer.js";
import type { ResourceHttpMethod, ScannedResource } from "./scanned-resource.js";

const url = (httpMethod: ResourceHttpMethod, path: string): ScannedResource => ({
  resourceIdentifier: path,
  resourceType: "URL",
  httpMethod,
  friendlyName: `app.${httpMethod} ${path}`,
  description: `URL: [${httpMethod}] ${path}`,
  serviceOwner: "app",
});

const method = (identifier: string): ScannedResource => ({
  resourceIdentifier: identifier,
  resourceType: "METHOD",
  friendlyName: identifier,
  description: `Method: ${identifier}`,
  serviceOwner: "x",
});

/** The demo's routes, then realistic routes of other applications. */
const ROUTES: readonly [ResourceHttpMethod, string, string][] = [
  // the demo
  ["GET", "/api/orders", "List orders"],
  ["POST", "/api/orders", "Place an order"],
  ["GET", "/api/orders/{id}", "View an order"],
  ["DELETE", "/api/orders/{id}", "Cancel an order"],
  ["GET", "/", "View the home page"],
  ["GET", "/account/security", "View account security"],
  ["POST", "/account/security", "Change account security"],
  // singular and plural, irregular plurals, versions dropped
  ["GET", "/api/v1/categories", "List categories"],
  ["GET", "/api/people", "List people"],
  ["GET", "/api/v2/addresses/{id}", "View an address"],
  ["POST", "/api/users/{id}/password", "Change a user's password"],
  ["PUT", "/api/users/{id}", "Update a user"],
  ["PATCH", "/api/tickets/{id}", "Edit a ticket"],
  ["DELETE", "/api/sessions/{id}", "Revoke a session"],
  ["DELETE", "/api/subscriptions/{id}", "Cancel a subscription"],
  ["DELETE", "/api/products/{id}", "Delete a product"],
  ["POST", "/api/files", "Upload a file"],
  ["POST", "/api/messages", "Send a message"],
  ["POST", "/api/api-keys", "Create an API key"],
  ["DELETE", "/api/api-keys/{keyId}", "Revoke an API key"],
  // nested resources
  ["GET", "/api/users/{id}/orders", "List a user's orders"],
  ["GET", "/api/v2/products/{sku}/reviews", "List a product's reviews"],
  ["POST", "/api/products/{id}/reviews", "Create a review for a product"],
  ["PATCH", "/api/users/{userId}/addresses/{addressId}", "Edit a user's address"],
  ["DELETE", "/api/projects/{projectId}/members/{memberId}", "Remove a member from a project"],
  ["GET", "/api/invoices/{id}/pdf", "View an invoice's PDF"],
  ["GET", "/api/me/settings", "View the caller's settings"],
  ["PUT", "/api/me/settings", "Change the caller's settings"],
  // actions as the last segment
  ["POST", "/api/orders/{id}/cancel", "Cancel an order"],
  ["POST", "/api/policies/{id}/approve", "Approve a policy"],
  ["POST", "/api/users/{id}/reset-password", "Reset a user's password"],
  ["POST", "/api/carts/{id}/checkout", "Check out a cart"],
  ["GET", "/api/orders/search", "Search orders"],
  ["POST", "/api/reports/export", "Export reports"],
  ["POST", "/api/keys/{id}/rotate", "Rotate a key"],
  // qualifiers, wildcards and methods without a better verb
  ["GET", "/api/admin/users", "List admin users"],
  ["GET", "/files/**", "View a file"],
  ["ANY", "/api/webhooks", "Manage webhooks"],
  ["HEAD", "/api/orders", "Check orders"],
  ["GET", "/api/inventory", "View inventory"],
];

const METHODS: readonly [string, string][] = [
  ["OrderService.get(string)", "Get an order"],
  ["OrderService.list()", "List orders"],
  ["UserService.findByEmail(string)", "Find a user by email"],
  ["UserService.getAll()", "List users"],
  ["OrderService.listOrdersForUser(string)", "List orders for a user"],
  ["OrderService.findAllByStatus(string)", "List orders by status"],
  ["AccountRepository.delete(string)", "Delete an account"],
  ["PaymentService.refund(string,number)", "Refund a payment"],
  ["shop.InvoiceService.sendReminder(string)", "Send a reminder"],
  ["ApiKeyService.rotate(string)", "Rotate an API key"],
  ["DocumentService.isOwner(string)", "Check owner of a document"],
];

describe("the offline namer", () => {
  it(`names ${ROUTES.length} routes by method and path`, () => {
    const named = ROUTES.map(([m, path]) => [m, path, offlineResourceName(url(m, path)).friendlyName]);
    expect(named).toEqual(ROUTES);
  });

  it(`names ${METHODS.length} protected methods by class and method`, () => {
    const named = METHODS.map(([id]) => [id, offlineResourceName(method(id)).friendlyName]);
    expect(named).toEqual(METHODS);
  });

  it("describes what it named with the method and path, or the method identifier", () => {
    expect(offlineResourceName(url("DELETE", "/api/orders/{id}"))).toEqual({
      friendlyName: "Cancel an order",
      description: "Cancel an order (DELETE /api/orders/{id})",
    });
    expect(offlineResourceName(url("ANY", "/api/webhooks")).description).toBe(
      "Manage webhooks (any method /api/webhooks)",
    );
    expect(offlineResourceName(method("OrderService.get(string)")).description).toBe(
      "Get an order: OrderService.get(string)",
    );
  });

  it("names a batch in order as a ResourceNamer", async () => {
    const batch = [url("GET", "/api/orders"), method("OrderService.get(string)")];
    expect(await new OfflineResourceNamer().name(batch)).toEqual(batch.map(offlineResourceName));
  });

  it("never throws on odd identifiers", () => {
    for (const path of ["", "/", "/{id}", "/**", "/api", "/v1/{x}/{y}", "/%%%/-/_", "/{a:[0-9]+}/b"]) {
      expect(offlineResourceName(url("POST", path)).friendlyName).not.toBe("");
    }
    for (const id of ["", "()", "x", ".()", "A.b.c.d()"]) {
      expect(typeof offlineResourceName(method(id)).friendlyName).toBe("string");
    }
  });
});

describe("english nouns", () => {
  it.each([
    ["orders", "order"],
    ["categories", "category"],
    ["addresses", "address"],
    ["boxes", "box"],
    ["branches", "branch"],
    ["people", "person"],
    ["status", "status"],
    ["settings", "settings"],
    ["invoices", "invoice"],
    ["photos", "photo"],
  ])("singular of %s is %s", (plural, singular) => {
    expect(singularOf(plural)).toBe(singular);
  });

  it("pluralises, splits identifiers and picks articles", () => {
    expect(["order", "category", "box", "orders"].map(pluralOf)).toEqual([
      "orders",
      "categories",
      "boxes",
      "orders",
    ]);
    expect(wordsOf("apiKeys")).toEqual(["api", "keys"]);
    expect(wordsOf("APIKeys_v2-list")).toEqual(["api", "keys", "v2", "list"]);
    expect(["order", "user", "API key", "URL", "hour", "item"].map(articleFor)).toEqual([
      "an",
      "a",
      "an",
      "a",
      "an",
      "an",
    ]);
  });
});
