import { InMemoryPasskeyCredentialRepository } from "./in-memory-passkey-credential-repository.js";
import { describePasskeyCredentialRepositoryContract } from "./passkey-credential-repository.contract.js";

describePasskeyCredentialRepositoryContract(
  "InMemoryPasskeyCredentialRepository",
  (clock) => new InMemoryPasskeyCredentialRepository({ clock }),
);
