import { CryptoIdGenerator } from "../kernel/id-generator.js";
import { InMemoryManagedResourceRepository } from "./in-memory-managed-resource-repository.js";
import { describeManagedResourceRepositoryContract } from "./managed-resource-repository.contract.js";

describeManagedResourceRepositoryContract(
  "InMemoryManagedResourceRepository",
  (clock) => new InMemoryManagedResourceRepository({ clock, ids: new CryptoIdGenerator() }),
);
