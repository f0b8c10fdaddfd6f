import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CredentialsFile } from "./credentials-file.js";

// Issue #25 item 8 (CLI part): a loose directory stayed loose, and the temporary file had a
// predictable name (`<file>.<pid>.tmp`) and was written through any link planted there.

const creds = { username: "admin", accessToken: "a", refreshToken: "r", accessExpiresAt: 1 };
const scratch = () => mkdtemp(join(tmpdir(), "creds-sec-"));

describe("CredentialsFile on a hostile or careless file system", () => {
  it("tightens an existing 0755 directory to 0700", async () => {
    const dir = join(await scratch(), "platform");
    await mkdir(dir, { mode: 0o755 });
    await chmod(dir, 0o755);
    await new CredentialsFile(join(dir, "credentials.json")).put("http://localhost:1", creds);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it("never writes through a link planted at the old temporary name, nor leaves a temporary file", async () => {
    const root = await scratch();
    const dir = join(root, "platform");
    await mkdir(dir, { mode: 0o700 });
    const victim = join(root, "victim.txt");
    await writeFile(victim, "precious\n", { mode: 0o644 });
    const path = join(dir, "credentials.json");
    await symlink(victim, `${path}.${process.pid}.tmp`);
    const file = new CredentialsFile(path);
    await file.put("http://localhost:1", creds);
    await file.put("http://localhost:2", creds);
    expect(await readFile(victim, "utf8")).toBe("precious\n");
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
    const written = await lstat(path);
    expect(written.isFile()).toBe(true);
    expect(written.mode & 0o777).toBe(0o600);
    expect((await file.get("http://localhost:2"))?.credentials).toEqual(creds);
    expect((await readdir(dir)).sort()).toEqual(["credentials.json", `credentials.json.${process.pid}.tmp`]);
  });

  it("refuses a directory that is a symbolic link: CREDENTIALS_DIR_INSECURE, nothing written", async () => {
    const root = await scratch();
    const elsewhere = join(root, "elsewhere");
    await mkdir(elsewhere, { mode: 0o755 });
    await symlink(elsewhere, join(root, "platform"));
    const file = new CredentialsFile(join(root, "platform", "credentials.json"));
    await expect(file.put("http://localhost:1", creds)).rejects.toMatchObject({
      code: "CREDENTIALS_DIR_INSECURE",
    });
    expect(await readdir(elsewhere)).toEqual([]);
    expect((await stat(elsewhere)).mode & 0o777).toBe(0o755);
  });

  it("refuses a path whose directory is a file: CREDENTIALS_DIR_INSECURE", async () => {
    const root = await scratch();
    await writeFile(join(root, "platform"), "");
    const file = new CredentialsFile(join(root, "platform", "credentials.json"));
    await expect(file.put("http://localhost:1", creds)).rejects.toMatchObject({
      code: "CREDENTIALS_DIR_INSECURE",
      message: expect.stringContaining("is not a directory"),
    });
  });

  it.runIf(process.getuid?.() === 0)(
    "refuses a directory another user owns, and leaves its mode alone",
    async () => {
      const dir = join(await scratch(), "platform");
      await mkdir(dir, { mode: 0o777 });
      await chmod(dir, 0o777);
      await chown(dir, 4242, 4242);
      const file = new CredentialsFile(join(dir, "credentials.json"));
      await expect(file.put("http://localhost:1", creds)).rejects.toMatchObject({
        code: "CREDENTIALS_DIR_INSECURE",
        message: expect.stringContaining("belongs to user 4242"),
      });
      expect(await readdir(dir)).toEqual([]);
      expect((await stat(dir)).mode & 0o777).toBe(0o777);
    },
  );
});
