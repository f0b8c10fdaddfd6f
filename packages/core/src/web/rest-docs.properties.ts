import { defineProperty, prop } from "../kernel/properties.js";

/**
 * Where the REST reference page is served (the spec's `platform.iam.admin.rest-docs-path`), one
 * anchor per route name: URL resources link to `<path>#<route name>`. Defined once, here; the HTTP
 * binding, which serves the page, declares it (its plugin lists it). A platform without the binding
 * reads the default (`properties.declares(key) ? get : default`).
 */
export const REST_DOCS_PATH = defineProperty<string>({
  key: "platform.iam.admin.rest-docs-path",
  schema: prop.string().refine((path) => /^\/[A-Za-z0-9._~/-]*$/.test(path) && !path.includes("//"), {
    message: "must be an absolute literal path such as /docs/index.html",
  }),
  default: "/docs/index.html",
  description:
    "Path of the REST reference page, rendered from the OpenAPI document (one anchor per route name, no script); URL resources' apiDocsUrl is <path>#<route name>.",
});
