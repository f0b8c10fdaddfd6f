// The conformance suite against the wire double (always) and a real MongoDB (with MONGODB_URI).
import { describe } from "vitest";
import { describeMongoConformance } from "./describe-mongo-conformance.js";
import { openDoubleTarget, openServerTarget } from "./mongo-target.js";

describeMongoConformance("MongoDB conformance: wire double", openDoubleTarget);

const uri = process.env.MONGODB_URI;
describe.skipIf(!uri)("MongoDB conformance: real server (skipped: set MONGODB_URI to run)", () => {
  describeMongoConformance(`server at MONGODB_URI`, () => openServerTarget(uri as string));
});
