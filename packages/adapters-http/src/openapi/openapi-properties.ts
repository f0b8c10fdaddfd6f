import { defineProperty, prop } from "@keyward/core";

/**
 * Whether the platform serves its OpenAPI document (`GET /openapi.json`) and its reference page
 * (`platform.iam.admin.rest-docs-path`). On by default, production included: the document holds the
 * route table's contract (paths, bodies, error codes), never data or secrets, and the endpoints
 * answer the same to anyone probing them. A host that keeps its surface unlisted sets it to false.
 */
export const HTTP_OPENAPI_ENABLED = defineProperty({
  key: "platform.http.openapi.enabled",
  schema: prop.bool(),
  default: true,
  description: "Serve GET /openapi.json and the REST reference page (rest-docs-path); false serves neither.",
});

// `platform.iam.admin.rest-docs-path` (where the reference page is served) is declared once, in the
// core (`REST_DOCS_PATH` of `@keyward/core/authz`): URL resources link to its anchors.
