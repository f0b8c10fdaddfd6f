import { describeDistributedLockContract } from "./distributed-lock.contract.js";
import { InMemoryDistributedLock } from "./in-memory-distributed-lock.js";

describeDistributedLockContract("InMemoryDistributedLock", (clock) => new InMemoryDistributedLock(clock));
