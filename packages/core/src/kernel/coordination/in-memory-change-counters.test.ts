import { describeChangeCountersContract } from "./change-counters.contract.js";
import { InMemoryChangeCounters } from "./in-memory-change-counters.js";

describeChangeCountersContract("InMemoryChangeCounters", () => new InMemoryChangeCounters());
