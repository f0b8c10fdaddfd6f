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

/** Where the REST reference page is served (the spec's property), one anchor per route name. */
export const REST_DOCS_PATH = defineProperty({
  key: "platform.iam.admin.rest-docs-path",
  schema: prop.string().refine((path) => /^\/[A-Za-z0-9._~/-]*$/.test(path) && !path.includes("//"), {
    message: "must be an absolute literal path such as /docs/index.html",
  }),
  default: "/docs/index.html",
  description: "Path of the REST reference page rendered from the OpenAPI document (one anchor per route).",
});
