// The MongoDB adapters of @platform/core's stateful ports. The stores come next (issue 16); for now
// the package holds its test support: the wire-protocol test double and its conformance suite.
/** The collection-name prefix every store of this package will use, one place to change it. */
export const MONGO_COLLECTION_PREFIX = "platform_";
