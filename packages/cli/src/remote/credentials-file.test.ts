import { chmod, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CredentialsFile, credentialsPath, normaliseServerUrl } from "./credentials-file.js";

const creds = { username: "admin", accessToken: "a", refreshToken: "r", accessExpiresAt: 1 };

describe("CredentialsFile", () => {
  it("writes mode 0600 in a 0700 directory, keyed by origin, and remembers the current server", async () => {
    const dir = await mkdtemp(join(tmpdir(), "creds-"));
    const file = new CredentialsFile(join(dir, "nested", "credentials.json"));
    await file.put("http://localhost:8080/some/path", creds);
    expect((await stat(file.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "nested"))).mode & 0o777).toBe(0o700);
    expect(await file.get()).toEqual({ url: "http://localhost:8080", credentials: creds });
    expect(await file.get("http://localhost:8080/")).toEqual({
      url: "http://localhost:8080",
      credentials: creds,
    });
    await file.remove("http://localhost:8080");
    expect(await file.get()).toBeUndefined();
    expect(JSON.parse(await readFile(file.path, "utf8"))).toEqual({ version: 1, servers: {} });
  });

  it("refuses a file others can read, and a file that is not a credentials file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "creds-"));
    const file = new CredentialsFile(join(dir, "credentials.json"));
    await file.put("http://localhost:1", creds);
    await chmod(file.path, 0o644);
    await expect(file.read()).rejects.toMatchObject({ code: "CREDENTIALS_FILE_INSECURE" });
    await writeFile(file.path, "{not json", { mode: 0o600 });
    await chmod(file.path, 0o600);
    await expect(file.read()).rejects.toMatchObject({ code: "CREDENTIALS_FILE_INVALID" });
  });

  it("reads nothing from a missing file", async () => {
    const file = new CredentialsFile(join(await mkdtemp(join(tmpdir(), "creds-")), "none.json"));
    expect(await file.get()).toBeUndefined();
  });

  it("finds the file from PLATFORM_CREDENTIALS, XDG_CONFIG_HOME or HOME", () => {
    expect(credentialsPath({ PLATFORM_CREDENTIALS: "/x/c.json" })).toBe("/x/c.json");
    expect(credentialsPath({ XDG_CONFIG_HOME: "/cfg" })).toBe("/cfg/platform/credentials.json");
    expect(credentialsPath({ HOME: "/home/u" })).toBe("/home/u/.config/platform/credentials.json");
  });

  it.each(["ftp://x", "not a url", "http://user:pw@host"])("refuses the server URL %s", (url) => {
    expect(() => normaliseServerUrl(url)).toThrow();
  });
});
