import { describe, expect, it } from "vitest";
import { PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import { user } from "../authentication/authentication.fixture.js";
import type { SubjectStatusQuery } from "../authentication/subject-status-check.js";
import type { SecurityContextRepository } from "./security-context-repository.js";
import { statusCheckedRepository } from "./status-checked-repository.js";

function recording(): SecurityContextRepository & { saved: Authentication[]; cleared: number } {
  const saved: Authentication[] = [];
  const repo = {
    name: "memory",
    saved,
    cleared: 0,
    load: async () => saved.at(-1),
    save: async (_x: HttpExchange, a: Authentication) => {
      saved.push(a);
    },
    clear: async () => {
      repo.cleared++;
    },
  };
  return repo;
}

const exchange = () =>
  new HttpExchange({
    method: "POST",
    url: "/login",
    headers: {},
    remoteAddress: "203.0.113.1",
    readBody: async () => "",
  });

describe("statusCheckedRepository", () => {
  it("asks the sign-in checkpoint before saving, then saves", async () => {
    const inner = recording();
    const asked: SubjectStatusQuery[] = [];
    const repo = statusCheckedRepository(inner, async (q) => {
      asked.push(q);
    });
    const x = exchange();
    await repo.save(x, user("u-1", "alice"));
    expect(asked).toEqual([{ checkpoint: "sign-in", authentication: user("u-1", "alice"), exchange: x }]);
    expect(inner.saved).toHaveLength(1);
    expect(repo.name).toBe("memory+status-check");
  });

  it("saves nothing when the checkpoint refuses, and passes the refusal on", async () => {
    const inner = recording();
    const repo = statusCheckedRepository(inner, async () => {
      throw new PlatformError("ZERO_TRUST_BLOCKED", "Access is blocked");
    });
    await expect(repo.save(exchange(), user("u-1", "alice"))).rejects.toMatchObject({
      code: "ZERO_TRUST_BLOCKED",
    });
    expect(inner.saved).toEqual([]);
  });

  it("loads and clears without asking (logout is never refused)", async () => {
    const inner = recording();
    inner.saved.push(user("u-1", "alice"));
    const repo = statusCheckedRepository(inner, async () => {
      throw new PlatformError("ZERO_TRUST_BLOCKED", "Access is blocked");
    });
    expect(await repo.load(exchange())).toMatchObject({ username: "alice" });
    await repo.clear(exchange());
    expect(inner.cleared).toBe(1);
  });
});
