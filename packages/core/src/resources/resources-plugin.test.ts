import { describe, expect, it } from "vitest";
import { Clock, ManualClock } from "../kernel/clock.js";
import { createPlatform } from "../kernel/platform.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../mfa/adaptive/risk-thresholds.js";
import { authzPlugin } from "../authz/authz-plugin.js";
import { resourcesPlugin } from "./resources-plugin.js";
import { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import { ROOT } from "../authz/policy/policy.fixture.js";
import { ManagedResourceRepository } from "./managed-resource-repository.js";
import { ManagedResourceService } from "./managed-resource-service.js";
import { targeting } from "./resources.fixture.js";
import {
  type ResourceName,
  ResourceNaming,
  ResourceScanner,
  type ScannedResource,
} from "./scanned-resource.js";

const found: ScannedResource[] = [
  {
    resourceIdentifier: "/api/orders",
    resourceType: "URL",
    httpMethod: "GET",
    friendlyName: "listOrders",
    description: "URL: [GET] /api/orders",
    serviceOwner: "orders",
  },
];

/** A naming that answers only when the test lets it: proves start-up does not wait for it. */
class GatedNaming {
  private open!: () => void;
  readonly gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  release(): void {
    this.open();
  }
  async nameAll(resources: readonly ScannedResource[]): Promise<readonly ResourceName[]> {
    await this.gate;
    return resources.map(() => ({ friendlyName: "List orders", description: "Lists the shop's orders" }));
  }
}

// A plugin as the scanning helper writes one: scanners as family members, one naming default.
function scanningPlugin(naming: GatedNaming): PlatformPlugin {
  return {
    id: "test-scanning",
    properties: ADAPTIVE_PROPERTIES,
    register(ctx) {
      ctx.registerMember(ResourceScanner, { useValue: { name: "routes", scan: async () => found } });
      ctx.registerDefault(ResourceNaming, { useValue: naming });
    },
  };
}

describe("resourcesPlugin", () => {
  it("syncs every registered scanner at start, names in the background, and reconciles on policy changes", async () => {
    const naming = new GatedNaming();
    const platform = createPlatform({
      plugins: [scanningPlugin(naming), authzPlugin, resourcesPlugin],
      env: {},
      register: (c) => c.registerInstance(Clock, new ManualClock()),
    });
    await platform.start();
    const repository = platform.resolve(ManagedResourceRepository);
    const [resource] = await repository.findAll();
    // Started while the naming was still waiting: the scanner's name is there, not yet the proposal.
    expect(resource).toMatchObject({ status: "NEEDS_DEFINITION", friendlyName: "listOrders", named: false });
    naming.release();
    await platform.stop();
    expect(await repository.findById(resource!.id)).toMatchObject({
      friendlyName: "List orders",
      named: true,
    });

    const service = platform.resolve(ManagedResourceService);
    await service.define(resource!.id, {}, ROOT);
    await platform.resolve(PolicyAdministrationService).create(targeting("/api/orders", "GET"), ROOT);
    expect((await repository.findById(resource!.id))?.status).toBe("POLICY_CONNECTED");
  });

  it("starts without scanners or naming: nothing to manage, no failure", async () => {
    const platform = createPlatform({
      plugins: [{ id: "props", properties: ADAPTIVE_PROPERTIES }, authzPlugin, resourcesPlugin],
      env: {},
    });
    await platform.start();
    expect(await platform.resolve(ManagedResourceRepository).findAll()).toEqual([]);
    await platform.stop();
  });
});

describe("resourcesPlugin without authzPlugin", () => {
  it("stops start-up with CONFIGURATION_INVALID naming what is missing", () => {
    expect(() => createPlatform({ plugins: [resourcesPlugin] })).toThrow(
      expect.objectContaining({
        code: "CONFIGURATION_INVALID",
        message: expect.stringContaining("authzPlugin"),
      }),
    );
  });
});
