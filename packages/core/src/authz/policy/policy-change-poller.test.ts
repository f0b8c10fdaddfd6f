import { describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import { Clock } from "../../kernel/clock.js";
import { Logger } from "../../kernel/logger.js";
import { createPlatform } from "../../kernel/platform.js";
import { authzPlugin } from "../authz-plugin.js";
import { UrlAuthorizationManager } from "../pdp/url-authorization-manager.js";
import { InMemoryPolicyRepository } from "./in-memory-policy-repository.js";
import { PolicyAdministrationService } from "./policy-administration-service.js";
import { PolicyChangePoller } from "./policy-change-poller.js";
import { PolicyRepository } from "./policy-repository.js";
import { BOB, manual, ROOT } from "./policy.fixture.js";

function repository(): InMemoryPolicyRepository {
  return new InMemoryPolicyRepository({ clock: new ManualClock(), ids: new CryptoIdGenerator() });
}

const NEW_POLICY = {
  name: "n",
  description: "",
  effect: "ALLOW" as const,
  priority: 1,
  targets: [],
  rules: [],
  source: "MANUAL" as const,
  approvalStatus: "NOT_REQUIRED" as const,
  isActive: true,
  confidenceScore: null,
  aiModel: null,
};

describe("PolicyChangePoller", () => {
  it("reloads only when the store's change count moved since the last poll", async () => {
    const repo = repository();
    let reloads = 0;
    const poller = new PolicyChangePoller({
      repository: repo,
      intervalMs: 0,
      logger: new RecordingLogger(),
      reload: async () => {
        reloads++;
      },
    });
    await repo.create(NEW_POLICY);
    await poller.start();
    await poller.poll();
    expect(reloads).toBe(0);
    await repo.create(NEW_POLICY);
    await poller.poll();
    await poller.poll();
    expect(reloads).toBe(1);
  });

  it("tries again after a failed reload, and logs a failing store once and its recovery once", async () => {
    const repo = repository();
    let storeDown = false;
    let reloadFails = true;
    let reloads = 0;
    const logger = new RecordingLogger();
    const poller = new PolicyChangePoller({
      repository: {
        changeCount: () => (storeDown ? Promise.reject(new Error("store down")) : repo.changeCount()),
      },
      intervalMs: 0,
      logger,
      reload: async () => {
        if (reloadFails) throw new Error("reload failed");
        reloads++;
      },
    });
    await poller.start();
    await repo.create(NEW_POLICY);
    await poller.poll();
    reloadFails = false;
    await poller.poll();
    expect(reloads).toBe(1);
    storeDown = true;
    await poller.poll();
    await poller.poll();
    storeDown = false;
    await poller.poll();
    expect(logger.lines.map((l) => `${l.level}: ${l.message}`)).toEqual([
      "error: policy change poll failed: deciding on the policies loaded before",
      "info: policy change poll recovered",
      "error: policy change poll failed: deciding on the policies loaded before",
      "info: policy change poll recovered",
    ]);
  });
});

describe("two instances on one policy store", () => {
  it("enforces on B a policy created on A, after B's next poll", async () => {
    const shared = repository();
    const instance = async () => {
      const platform = createPlatform({
        plugins: [authzPlugin],
        env: {},
        properties: { "platform.policy.refresh-interval": "100ms" },
        register: (c) => {
          c.registerInstance(Clock, new ManualClock());
          c.registerInstance(Logger, new RecordingLogger());
          c.registerInstance(PolicyRepository, shared);
        },
      });
      await platform.start();
      return platform;
    };
    const a = await instance();
    const b = await instance();
    try {
      const decide = () =>
        b
          .resolve(UrlAuthorizationManager)
          .explain(
            { authentication: BOB, method: "GET", path: "/admin/users", remoteAddress: "127.0.0.1" },
            undefined,
          ).decision.granted;
      expect(decide()).toBe(true);
      await a.resolve(PolicyAdministrationService).create(manual(), ROOT);
      await vi.waitFor(() => expect(decide()).toBe(false), { timeout: 5_000, interval: 50 });
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
