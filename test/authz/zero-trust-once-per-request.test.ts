import { ZeroTrustActionService } from "@keyward/core/authz";
import { UserRepository, ZeroTrustActionStore } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZeroTrustActionResolver } from "../../packages/core/src/authz/zerotrust/zero-trust-action-resolver.js";
import { bearerHeaders, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// Zero trust is resolved once per request: the `request` checkpoint (every SubjectStatusCheck, after
// the security context) resolves the caller, and the PDP's evaluator reads that resolution. The hot
// path is off here, so every resolution reads the store: before, one bearer GET /api/orders read it
// twice (the checkpoint, then the PDP).

let demo: RunningDemo;
let headers: Record<string, string>;

beforeAll(async () => {
  demo = await startDemo({}, { ...NO_MFA_FOR_ADMINS, "security.zerotrust.hotpath.enabled": false });
  headers = await bearerHeaders(demo.base, "user", "password");
});
afterAll(() => demo.close());

/**
 * Runs `request` counting the resolver's resolutions (`resolve`: with the hot path off the PDP's
 * `resolveCached` misses and it resolves too) and the store's reads.
 */
async function counting(request: () => Promise<Response>) {
  const resolver = demo.platform.resolve(ZeroTrustActionResolver);
  const store = demo.platform.resolve(ZeroTrustActionStore);
  const resolve = vi.spyOn(resolver, "resolve");
  const reads = vi.spyOn(store, "get");
  try {
    const res = await request();
    return {
      res,
      resolutions: resolve.mock.calls.length,
      reads: reads.mock.calls.map(([subject]) => subject),
    };
  } finally {
    resolve.mockRestore();
    reads.mockRestore();
  }
}

describe("zero trust once per request", () => {
  it("one resolution and one store read for a bearer GET /api/orders that passes the checkpoint and the PDP", async () => {
    const { res, resolutions, reads } = await counting(() => fetch(`${demo.base}/api/orders`, { headers }));
    expect(res.status).toBe(200);
    expect(resolutions).toBe(1);
    expect(reads).toHaveLength(1);
  });

  it("one resolution and one store read for a bearer GET /api/me: the `me` checkpoint judges the `request` checkpoint's", async () => {
    const { res, resolutions, reads } = await counting(() => fetch(`${demo.base}/api/me`, { headers }));
    expect(res.status).toBe(200);
    expect(resolutions).toBe(1);
    expect(reads).toHaveLength(1);
  });

  it("the PDP decides on that one resolution: an ESCALATE the checkpoint lets through is refused by the PDP", async () => {
    const user = await demo.platform.resolve(UserRepository).findByUsername("user");
    const service = demo.platform.resolve(ZeroTrustActionService);
    await service.set(`user:${user!.id}`, "ESCALATE", { source: "admin", reason: "review" });
    try {
      const { res, resolutions, reads } = await counting(() => fetch(`${demo.base}/api/orders`, { headers }));
      expect(res.status).toBe(423);
      expect(((await res.json()) as { code: string }).code).toBe("ZERO_TRUST_REVIEW_REQUIRED");
      expect(resolutions).toBe(1);
      expect(reads).toHaveLength(1);
    } finally {
      await service.clear(`user:${user!.id}`, { source: "admin" });
    }
  });
});
