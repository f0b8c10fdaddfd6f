import { checkInstanceHeartbeat, checkPruneBefore } from "./instance-heartbeat-check.js";
import type { InstanceHeartbeat, InstanceHeartbeatStore } from "./instance-heartbeat-store.js";

/**
 * The reference InstanceHeartbeatStore, used by tests and the embedded default: one frozen copy per
 * instance, replaced inside one synchronous step, so a reader never sees part of a beat.
 */
export class InMemoryInstanceHeartbeatStore implements InstanceHeartbeatStore {
  private readonly byInstance = new Map<string, InstanceHeartbeat>();

  async beat(heartbeat: InstanceHeartbeat): Promise<void> {
    const record = checkInstanceHeartbeat(heartbeat);
    this.byInstance.set(record.instanceId, deepFreeze(structuredClone(record)));
  }

  async list(): Promise<InstanceHeartbeat[]> {
    return [...this.byInstance.values()].sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  }

  async prune(olderThan: number): Promise<number> {
    checkPruneBefore(olderThan);
    let removed = 0;
    for (const [id, record] of this.byInstance)
      if (record.at < olderThan) {
        this.byInstance.delete(id);
        removed += 1;
      }
    return removed;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
