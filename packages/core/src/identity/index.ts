export { identityPlugin } from "./identity-plugin.js";
export * from "./password/index.js";
export * from "./users/index.js";
