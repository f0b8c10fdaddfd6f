import { InMemoryInstanceHeartbeatStore } from "./in-memory-instance-heartbeat-store.js";
import { describeInstanceHeartbeatStoreContract } from "./instance-heartbeat-store.contract.js";

describeInstanceHeartbeatStoreContract(
  "InMemoryInstanceHeartbeatStore",
  () => new InMemoryInstanceHeartbeatStore(),
);
