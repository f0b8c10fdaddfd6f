import { describeInspectionResultStoreContract } from "./inspection-result-store.contract.js";
import { InMemoryInspectionResultStore } from "./in-memory-inspection-result-store.js";

describeInspectionResultStoreContract(
  "InMemoryInspectionResultStore",
  () => new InMemoryInspectionResultStore(),
);
