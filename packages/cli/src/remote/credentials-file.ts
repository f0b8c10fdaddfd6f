import { chmod, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { CliFailure } from "../command-line/cli-command.js";

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
 * The per-user credentials file of the `platform` command: mode 0600 in a 0700 directory, written
 * atomically (temp file, then rename). A file others can read is refused, as ssh refuses a loose key:
 * the tokens in it act as the user.
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
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
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

  /** Replaces the document (0600, atomically). */
  async write(doc: CredentialsDocument): Promise<void> {
    const dir = dirname(this.path);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, this.path);
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
