import type { DependencyHealth, HealthIndicator } from "@keyward/core/ports";
import type { MongoClient, TopologyDescription, TopologyDescriptionChangedEvent } from "mongodb";
import { MONGO_DEPENDENCY } from "./mongo-outage.js";

/** Server types that take writes: what every store needs. */
const WRITABLE = new Set<string>(["Standalone", "RSPrimary", "Mongos", "LoadBalancer"]);

/**
 * `/health`'s view of MongoDB, fed by the driver's own monitoring: every topology change (heartbeats,
 * a failed operation marking its server unknown, a server coming back) updates the last-known state,
 * so `health()` costs no command. UP while some server takes writes (a standalone, a replica set's
 * primary, a mongos, a load balancer); DOWN before the first connection, while none does, after a
 * request found MongoDB unreachable (until the next good heartbeat or new connection), and after the client
 * closed. Reasons are fixed phrases: no host, address or driver message.
 */
export class MongoHealthIndicator implements HealthIndicator {
  readonly name = MONGO_DEPENDENCY;
  private state: DependencyHealth = { status: "DOWN", reason: "not connected yet" };
  private topology: TopologyDescription | undefined;

  constructor(client: MongoClient) {
    client.on("topologyDescriptionChanged", (event: TopologyDescriptionChangedEvent) => {
      this.topology = event.newDescription;
      this.state = stateOf(event.newDescription);
    });
    // A request can meet a dropped connection before the driver's view changes (see mongo-outage.ts);
    // the next good heartbeat, or the next connection that completes its handshake, puts the state
    // back to what the topology says.
    const answered = () => {
      if (this.topology) this.state = stateOf(this.topology);
    };
    client.on("serverHeartbeatSucceeded", answered);
    client.on("connectionReady", answered);
    client.on("topologyClosed", () => {
      this.state = { status: "DOWN", reason: "client closed" };
    });
  }

  /** A connect just succeeded (a host's client may have been connected before any event reached us). */
  connected(): void {
    this.state = { status: "UP" };
  }

  /** A request found MongoDB unreachable (the plugin's ErrorTranslator member reports it). */
  unreachable(): void {
    this.state = { status: "DOWN", reason: "a request could not reach it" };
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
