import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOW_COST_SCRYPT_ENV } from "../support/low-cost-scrypt.js";
import { withEnv } from "../support/with-env.js";

// The README's embedding snippet is examples/readme-snippet.ts, word for word, and it runs: imported
// once (on a free port, at the tests' scrypt cost), it answers /health and signs its user in.

const ROOT = new URL("../../", import.meta.url);
const SNIPPET = readFileSync(new URL("examples/readme-snippet.ts", ROOT), "utf8");

/** The code block right under the README's "## Embedding" heading. */
function embeddingBlock(readme: string): string | undefined {
  return /^## Embedding\n\n```ts\n([\s\S]*?)```$/m.exec(readme)?.[1];
}

describe("the README's embedding snippet (examples/readme-snippet.ts)", () => {
  let snippet: typeof import("../../examples/readme-snippet.js");
  let base: string;
  beforeAll(async () => {
    snippet = await withEnv(
      { PORT: "0", ...LOW_COST_SCRYPT_ENV },
      () => import("../../examples/readme-snippet.js"),
    );
    base = snippet.server.url;
  });
  afterAll(async () => {
    await snippet?.server.close();
    await snippet?.platform.stop();
  });

  it("is the README's code block under Embedding, verbatim", () => {
    expect(embeddingBlock(readFileSync(new URL("README.md", ROOT), "utf8"))).toBe(SNIPPET);
  });

  it("answers /health 200 and signs its user in over JSON (a wrong password: 401)", async () => {
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const login = (password: string) =>
      fetch(`${base}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "ada", password }),
      });
    const ok = await login("correct horse battery");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { accessToken: string }).accessToken.split(".")).toHaveLength(3);
    expect((await login("correct horse")).status).toBe(401);
  });

  it("refuses malformed, oversized and hostile sign-in bodies with stable codes, never a 500", async () => {
    const post = (body: string, type = "application/json") =>
      fetch(`${base}/api/login`, { method: "POST", headers: { "content-type": type }, body });
    const cases = [
      await post("{"),
      await post(JSON.stringify({ username: "ada" })),
      await post(JSON.stringify({ username: "ada", password: "x".repeat(300_000) })),
      await post(JSON.stringify({ username: { $ne: null }, password: ["x"] })),
      await post("username=ada&password=x", "text/plain"),
    ];
    for (const answer of cases) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(((await answer.json()) as { code: string }).code).toMatch(/^[A-Z_]+$/);
    }
  });
});
