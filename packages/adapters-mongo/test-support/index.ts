// `@keyward/adapters-mongo/testing`: what tests of Mongo-backed code use. Not shipped code: the
// wire double is a TEST DOUBLE, not a database (see wire-double/README.md).
export type { MongoTarget } from "./conformance/mongo-target.js";
export { openDoubleTarget, openServerTarget } from "./conformance/mongo-target.js";
export { startWireDouble, type WireDouble, type WireDoubleOptions } from "./wire-double/index.js";
export { describeAgainstMongo } from "./describe-against-mongo.js";
export { type CommandCounter, countCommands } from "./command-counter.js";
