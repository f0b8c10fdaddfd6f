// The public face of @platform/core. Each module's index lists its exports by name; the
// names-and-kinds snapshot (public-api.test.ts) pins the whole surface, with the other subpaths'.
export * from "./authz/index.js";
export * from "./identity/index.js";
export * from "./kernel/index.js";
export * from "./mfa/index.js";
export * from "./web/index.js";
