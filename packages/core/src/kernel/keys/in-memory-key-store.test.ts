import { InMemoryKeyStore } from "./in-memory-key-store.js";
import { describeKeyStoreContract } from "./key-store.contract.js";

describeKeyStoreContract("InMemoryKeyStore", () => new InMemoryKeyStore());
