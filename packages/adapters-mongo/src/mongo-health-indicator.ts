import type { DependencyHealth, HealthIndicator } from "@platform/core/ports";
import type { MongoClient, TopologyDescription, TopologyDescriptionChangedEvent } from "mongodb";
import { MONGO_DEPENDENCY } from "./mongo-outage.js";

/** Server types that take writes: what every store needs. */
const WRITABLE = new Set<string>(["Standalone", "RSPrimary", "Mongos", "LoadBalancer"]);

/**
 * `/health`'s view of MongoDB, fed by the driver's own monitoring: every topology change (heartbeats,
 * a failed operation marking its server unknown, a server coming back) updates the last-known state,
 * so `health()` costs no command. UP while some server takes writes (a standalone, a replica set's
 * primary, a mongos, a load balancer); DOWN before the first connection, while none does, and after
 * the client closed. Reasons are fixed phrases: no host, address or driver message.
 */
export class MongoHealthIndicator implements HealthIndicator {
  readonly name = MONGO_DEPENDENCY;
  private state: DependencyHealth = { status: "DOWN", reason: "not connected yet" };

  constructor(client: MongoClient) {
    client.on("topologyDescriptionChanged", (event: TopologyDescriptionChangedEvent) => {
      this.state = stateOf(event.newDescription);
    });
    client.on("topologyClosed", () => {
      this.state = { status: "DOWN", reason: "client closed" };
    });
  }

  /** A connect just succeeded (a host's client may have been connected before any event reached us). */
  connected(): void {
    this.state = { status: "UP" };
  }

  health(): DependencyHealth {
    return this.state;
  }
}

function stateOf(topology: TopologyDescription): DependencyHealth {
  if (topology.type === "LoadBalanced") return { status: "UP" };
  for (const server of topology.servers.values()) if (WRITABLE.has(server.type)) return { status: "UP" };
  return { status: "DOWN", reason: "no writable server reachable" };
}
