import { InMemoryReleaseRegistry } from "./in-memory-release-registry.js";
import { describeReleaseRegistryContract } from "./release-registry.contract.js";

describeReleaseRegistryContract("InMemoryReleaseRegistry", () => new InMemoryReleaseRegistry());
