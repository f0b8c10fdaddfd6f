import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, readFile, rename, stat, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { CliFailure } from "../command-line/cli-command.js";
import { ensurePrivateDirectory } from "./private-directory.js";

/** Creates a new file only: never an existing one, never through a symbolic link. */
const EXCLUSIVE_CREATE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** The tokens `platform login` keeps for one server. */
export interface ServerCredentials {
  username: string;
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token expires (refreshed a little before). */
  accessExpiresAt: number;
}

/** The whole file: one entry per server URL, and the server the last login chose. */
export interface CredentialsDocument {
  version: 1;
  current?: string;
  servers: Record<string, ServerCredentials>;
}

/**
 * Where the credentials live: `$PLATFORM_CREDENTIALS`, else `$XDG_CONFIG_HOME/platform/credentials.json`,
 * else `~/.config/platform/credentials.json`.
 */
export function credentialsPath(env: Record<string, string | undefined>): string {
  if (env.PLATFORM_CREDENTIALS) return env.PLATFORM_CREDENTIALS;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "platform", "credentials.json");
}

/**
 * The per-user credentials file of the `platform` command: mode 0600 in a 0700 directory
 * (`ensurePrivateDirectory`), written atomically: a temporary file with a random name, created
 * exclusively (O_EXCL|O_NOFOLLOW, so a file or link planted in advance is never written through),
 * then renamed over the file. A file others can read is refused, as ssh refuses a loose key: the
 * tokens in it act as the user.
 */
export class CredentialsFile {
  constructor(readonly path: string) {}

  /** The stored document (an empty one when the file does not exist). */
  async read(): Promise<CredentialsDocument> {
    let text: string;
    try {
      const info = await stat(this.path);
      if ((info.mode & 0o077) !== 0) {
        throw new CliFailure(
          `${this.path} is readable by others (mode ${(info.mode & 0o777).toString(8)}); run chmod 600 on it`,
          "CREDENTIALS_FILE_INSECURE",
        );
      }
      text = await readFile(this.path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { version: 1, servers: {} };
      if (code === "ENOTDIR")
        throw new CliFailure(`${dirname(this.path)} is not a directory`, "CREDENTIALS_DIR_INSECURE");
      throw error;
    }
    try {
      const doc = JSON.parse(text) as CredentialsDocument;
      if (doc?.version !== 1 || typeof doc.servers !== "object" || doc.servers === null)
        throw new Error("shape");
      return doc;
    } catch {
      throw new CliFailure(
        `${this.path} is not a credentials file of this version; delete it and log in again`,
        "CREDENTIALS_FILE_INVALID",
      );
    }
  }

  /** Replaces the document (0600, atomically); a failed write leaves the old file and no temporary one. */
  async write(doc: CredentialsDocument): Promise<void> {
    const dir = dirname(this.path);
    await ensurePrivateDirectory(dir);
    const temp = join(dir, `.${basename(this.path)}.${randomBytes(12).toString("hex")}.tmp`);
    const handle = await open(temp, EXCLUSIVE_CREATE, 0o600);
    try {
      try {
        await handle.chmod(0o600);
        await handle.writeFile(`${JSON.stringify(doc, null, 2)}\n`, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  /** The credentials for `url` (or the current server when url is undefined), if any. */
  async get(url?: string): Promise<{ url: string; credentials: ServerCredentials } | undefined> {
    const doc = await this.read();
    const key = url ? normaliseServerUrl(url) : doc.current;
    const credentials = key ? doc.servers[key] : undefined;
    return key && credentials ? { url: key, credentials } : undefined;
  }

  /** Stores credentials for `url` and makes it the current server. */
  async put(url: string, credentials: ServerCredentials): Promise<void> {
    const doc = await this.read();
    const key = normaliseServerUrl(url);
    doc.servers[key] = credentials;
    doc.current = key;
    await this.write(doc);
  }

  /** Forgets `url`; the current server is cleared when it was that one. */
  async remove(url: string): Promise<void> {
    const doc = await this.read();
    const key = normaliseServerUrl(url);
    delete doc.servers[key];
    if (doc.current === key) delete doc.current;
    await this.write(doc);
  }
}

/** `http://host:port` without a trailing slash or path; refuses anything but http(s) URLs. */
export function normaliseServerUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliFailure(`Not a server URL: ${url}`, "USAGE_INVALID_URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new CliFailure(`Not an http(s) URL: ${url}`, "USAGE_INVALID_URL");
  }
  if (parsed.username || parsed.password) {
    throw new CliFailure("Put no credentials in the server URL", "USAGE_INVALID_URL");
  }
  return parsed.origin;
}
