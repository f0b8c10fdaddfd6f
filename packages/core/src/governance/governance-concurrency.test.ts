import { describeReleaseGovernanceConcurrency } from "./governance-concurrency.test-support.js";
import { InMemoryReleaseRegistry } from "./registry/in-memory-release-registry.js";

describeReleaseGovernanceConcurrency("InMemoryReleaseRegistry", () => new InMemoryReleaseRegistry());
