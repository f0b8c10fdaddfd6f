import { existsSync, mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import { CredentialsFile } from "../remote/credentials-file.js";
import { PLATFORM_COMMANDS } from "./index.js";

// Issue #25 item 6: a hostile or intercepted server put terminal escapes and a forged prompt into
// `platform login`'s output, named an MFA endpoint on another host, and could answer without end.
// The server here is real (127.0.0.1); every command reads it as it would any server.

const ESC = "\u001b";
const HOSTILE = `${ESC}[2J${ESC}[H${ESC}]0;pwned\u0007${ESC}[8mhidden${ESC}[28m\u009b2J\u202eevil\u202c\nplatform: session expired, enter your password again:`;
/** Any control a terminal acts on, and the bidi controls: none may reach the terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what is looked for.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

type Play = (req: IncomingMessage, res: ServerResponse) => void;
const json =
  (status: number, body: unknown): Play =>
  (_req, res) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

let server: Server;
let base: string;
let routes: Record<string, Play> = {};
let seen: string[] = [];
let dir: string;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push(`${req.method} ${req.url}`);
      open.add(res);
      res.on("close", () => open.delete(res));
      (routes[`${req.method} ${req.url}`] ?? json(404, { code: "NOT_FOUND" }))(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  routes = {};
  seen = [];
  dir = mkdtempSync(join(tmpdir(), "cli-hostile-"));
});

const credentialsPath = () => join(dir, "credentials.json");
async function run(argv: string[], input: string[] = []) {
  const io = memoryCliIo(input, { PLATFORM_CREDENTIALS: credentialsPath() });
  const code = await runCli(argv, PLATFORM_COMMANDS, io);
  const out = io.stdout.join("\n");
  const err = io.stderr.join("\n");
  return { code, out, err, io };
}
const login = (...extra: string[]) =>
  run(["login", "--url", base, "--username", "admin", "--password-stdin", ...extra], ["pw", "123456"]);
const mfa = (verifyOtt: unknown) =>
  json(200, { mfaRequired: true, mfaSessionId: "s", mfaBinding: "b", endpoints: { verifyOtt } });

describe("platform against a hostile server: nothing it sends is printed raw", () => {
  it("login: an error message full of escapes and a forged prompt is one plain line", async () => {
    routes["POST /api/login"] = json(401, { code: `BAD_CREDENTIALS${ESC}[31m`, message: HOSTILE });
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(err).not.toMatch(CONTROL);
    const last = err.split("\n").at(-1)!;
    expect(last).toBe(
      "platform: BAD_CREDENTIALS: hiddenevil platform: session expired, enter your password again:",
    );
    expect(existsSync(credentialsPath())).toBe(false);
  });

  it("login: a code that is not UPPER_SNAKE is not printed as one", async () => {
    routes["POST /api/login"] = json(403, { code: "see: https://evil.example", message: "no" });
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(err.split("\n").at(-1)).toBe("platform: HTTP_403: no");
  });

  it("login: the wrong-code count takes numbers only", async () => {
    routes["POST /api/login"] = mfa("/mfa/api/verify-ott");
    routes["POST /mfa/api/verify-ott"] = json(401, {
      code: "MFA_FACTOR_VERIFICATION_FAILED",
      attemptsMade: `${ESC}]0;x\u0007`,
      maxAttempts: `\n${HOSTILE}`,
    });
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(err).not.toMatch(CONTROL);
    expect(err).toContain("Wrong code; try again.");
  });

  it.each([
    "//evil.example/x",
    "https://evil.example/x",
    "/\\evil.example/x",
    "/\t/evil.example/x",
    " /mfa/api/verify-ott",
    "mfa/api/verify-ott",
  ])(
    "login: refuses the MFA endpoint %j before asking for a code; nothing sent there, nothing written",
    async (verifyOtt) => {
      routes["POST /api/login"] = mfa(verifyOtt);
      const { code, err } = await login();
      expect(code).toBe(1);
      expect(err).toMatch(/platform: SERVER_PATH_REFUSED: /);
      expect(err).not.toMatch(CONTROL);
      expect(err).not.toContain("Code:");
      expect(seen).toEqual(["POST /api/login"]);
      expect(existsSync(credentialsPath())).toBe(false);
    },
  );

  it("login: refuses a held sign-in's statusUrl on another host", async () => {
    routes["POST /api/login"] = json(202, { statusUrl: "//evil.example/status", mfaBinding: "b" });
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(err).toContain("platform: SERVER_PATH_REFUSED: ");
    expect(seen).toEqual(["POST /api/login"]);
  });

  it("users list: usernames, ids and authorities with escapes print plain, in text and in --json", async () => {
    await new CredentialsFile(credentialsPath()).put(base, {
      username: "admin",
      accessToken: "at",
      refreshToken: "rt",
      accessExpiresAt: Date.now() + 3_600_000,
    });
    routes["GET /admin/api/users"] = json(200, [
      {
        id: `u1${ESC}[2J`,
        username: `${ESC}]0;t\u0007adm\u202ein\nplatform: enter your password again:`,
        authorities: [`ROLE_ADMIN${ESC}[8m`],
        enabled: true,
        locked: false,
        hasPassword: true,
      },
    ]);
    const text = await run(["users", "list", "--url", base]);
    expect(text.code).toBe(0);
    expect(text.out).not.toMatch(CONTROL);
    expect(text.out.split("\n")).toHaveLength(1);
    expect(text.out).toContain("admin platform: enter your password again:");
    const asJson = await run(["users", "list", "--url", base, "--json"]);
    expect(asJson.out).not.toMatch(CONTROL);
    expect(JSON.parse(asJson.out).users[0]).toMatchObject({ id: "u1", authorities: ["ROLE_ADMIN"] });
  });

  it("users list: an answer that is no user list is SERVER_ANSWER_INVALID, nothing printed", async () => {
    await new CredentialsFile(credentialsPath()).put(base, {
      username: "admin",
      accessToken: "at",
      refreshToken: "rt",
      accessExpiresAt: Date.now() + 3_600_000,
    });
    routes["GET /admin/api/users"] = json(200, { users: "not a list" });
    const { code, out, err } = await run(["users", "list", "--url", base]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toContain("platform: SERVER_ANSWER_INVALID: ");
  });

  it("login: an answer without end is cut at the cap (SERVER_ANSWER_TOO_LARGE) and the connection dropped", async () => {
    routes["POST /api/login"] = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    };
    const started = Date.now();
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(err).toMatch(/platform: SERVER_ANSWER_TOO_LARGE: /);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(open.size).toBe(0);
  });

  it("login: a declared Content-Length over the cap is refused unread", async () => {
    routes["POST /api/login"] = (_req, res) => {
      res.writeHead(200, { "content-length": String(300 * 1024 * 1024) });
      res.write("{");
    };
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(err).toMatch(/platform: SERVER_ANSWER_TOO_LARGE: /);
  });

  it("evidence verify: malformed chain entries are broken links, never a crash; no chain list is SERVER_ANSWER_INVALID", async () => {
    await new CredentialsFile(credentialsPath()).put(base, {
      username: "admin",
      accessToken: "at",
      refreshToken: "rt",
      accessExpiresAt: Date.now() + 3_600_000,
    });
    const chain = "/platform/admin/api/prompt-inspection/chain";
    routes[`GET ${chain}`] = json(200, { chains: [{ instanceId: "n1" }], keys: [] });
    routes[`GET ${chain}?instance=n1&after=0&limit=1000`] = json(200, {
      entries: [null, 5, { sequence: `1${ESC}[2J`, packageIds: [HOSTILE] }],
      checkpoints: [],
      keys: [],
      next: null,
    });
    const broken = await run(["evidence", "verify", "--url", base]);
    expect(broken.code).toBe(1);
    expect(broken.out).not.toMatch(CONTROL);
    expect(broken.out).toMatch(/^n1: 0 entries, no signed checkpoint yet: BROKEN_LINK at sequence 0$/);
    routes[`GET ${chain}`] = json(200, { chains: `n1${ESC}[2J` });
    const invalid = await run(["evidence", "verify", "--url", base]);
    expect(invalid.code).toBe(1);
    expect(invalid.err).toMatch(/platform: SERVER_ANSWER_INVALID: /);
  });
});
