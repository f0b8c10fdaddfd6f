// The conformance suite against the wire double (always) and a real MongoDB (registered only when
// MONGODB_URI is set: without it the real-server half does not exist, rather than showing as skipped).
import { describeMongoConformance } from "./describe-mongo-conformance.js";
import { openDoubleTarget, openServerTarget } from "./mongo-target.js";

describeMongoConformance("MongoDB conformance: wire double", openDoubleTarget);

const uri = process.env.MONGODB_URI;
if (uri) describeMongoConformance("MongoDB conformance: server at MONGODB_URI", () => openServerTarget(uri));
