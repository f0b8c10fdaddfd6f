import { InMemoryReleaseEvidenceLedger } from "./in-memory-release-evidence-ledger.js";
import { describeReleaseEvidenceLedgerContract } from "./release-evidence-ledger.contract.js";

describeReleaseEvidenceLedgerContract(
  "InMemoryReleaseEvidenceLedger",
  () => new InMemoryReleaseEvidenceLedger(),
);
