import { InMemoryRecoveryCodeStore } from "./in-memory-recovery-code-store.js";
import { describeRecoveryCodeStoreContract } from "./recovery-code-store.contract.js";

describeRecoveryCodeStoreContract("InMemoryRecoveryCodeStore", async () => new InMemoryRecoveryCodeStore());
