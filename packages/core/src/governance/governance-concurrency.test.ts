import { describeReleaseGovernanceConcurrency } from "./governance-concurrency.fixture.js";
import { InMemoryReleaseRegistry } from "./registry/in-memory-release-registry.js";

describeReleaseGovernanceConcurrency("InMemoryReleaseRegistry", () => new InMemoryReleaseRegistry());
