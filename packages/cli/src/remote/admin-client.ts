import type { TokenPairAnswer, TokenRefreshBody } from "@platform/core/wire";
import { CliFailure } from "../command-line/cli-command.js";
import { type CredentialsFile, normaliseServerUrl, type ServerCredentials } from "./credentials-file.js";

/** The JSON answer of a server call. */
export interface ServerAnswer {
  status: number;
  body: unknown;
}

/** Refresh this long before the access token expires, so a call never starts with a dying token. */
const REFRESH_MARGIN_MS = 30_000;
/** Longest wait for one server call. */
const TIMEOUT_MS = 30_000;

/** Options of the AdminClient. */
export interface AdminClientOptions {
  credentials: CredentialsFile;
  /** The server; default the current one of the credentials file. */
  url?: string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * Calls a running server's admin API as the signed-in user: the bearer token from the credentials
 * file, refreshed (and the file rewritten) shortly before it expires or when the server says it no
 * longer accepts it. A refused refresh forgets the credentials and asks for a new login. The
 * server's own answer (status, code, message) decides success: the CLI is authorised, audited and
 * gated exactly as the console is.
 */
export class AdminClient {
  private readonly fetch: typeof fetch;
  private readonly now: () => number;

  constructor(private readonly o: AdminClientOptions) {
    this.fetch = o.fetch ?? fetch;
    this.now = o.now ?? Date.now;
  }

  /** Sends one JSON request; resolves with 2xx answers, throws a CliFailure with the server's code otherwise. */
  async call(method: string, path: string, body?: unknown): Promise<ServerAnswer> {
    const session = await this.session();
    let credentials = session.credentials;
    if (credentials.accessExpiresAt - REFRESH_MARGIN_MS <= this.now()) {
      credentials = await this.refresh(session.url, credentials);
    }
    let answer = await send(this.fetch, session.url, method, path, body, credentials.accessToken);
    if (answer.status === 401 && isTokenRefusal(answer)) {
      credentials = await this.refresh(session.url, credentials);
      answer = await send(this.fetch, session.url, method, path, body, credentials.accessToken);
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw failureOf(answer);
  }

  /** The server URL the client talks to. */
  async serverUrl(): Promise<string> {
    return (await this.session()).url;
  }

  private async session(): Promise<{ url: string; credentials: ServerCredentials }> {
    const found = await this.o.credentials.get(this.o.url);
    if (!found) {
      const where = this.o.url ? ` to ${normaliseServerUrl(this.o.url)}` : "";
      throw new CliFailure(
        `Not logged in${where}: run \`platform login --url <server>\` first`,
        "NOT_LOGGED_IN",
      );
    }
    return found;
  }

  private async refresh(url: string, credentials: ServerCredentials): Promise<ServerCredentials> {
    const body: TokenRefreshBody = { refreshToken: credentials.refreshToken };
    const answer = await send(this.fetch, url, "POST", "/api/token/refresh", body);
    if (answer.status !== 200) {
      await this.o.credentials.remove(url);
      throw new CliFailure(
        `The server no longer accepts your sign-in (${codeOf(answer) ?? answer.status}): run \`platform login --url ${url}\``,
        "LOGIN_EXPIRED",
      );
    }
    const next = credentialsFrom(answer, credentials.username, this.now());
    await this.o.credentials.put(url, next);
    return next;
  }
}

/** Credentials from a token answer (`{ accessToken, refreshToken, expiresIn }`), checked field by field. */
export function credentialsFrom(answer: ServerAnswer, username: string, now: number): ServerCredentials {
  const b = (answer.body ?? {}) as Partial<Record<keyof TokenPairAnswer, unknown>>;
  if (typeof b.accessToken !== "string" || typeof b.refreshToken !== "string") {
    throw new CliFailure("The server answered without tokens (is this a `.oauth2()` chain?)", "NO_TOKENS");
  }
  const expiresIn = typeof b.expiresIn === "number" ? b.expiresIn : 300;
  return {
    username,
    accessToken: b.accessToken,
    refreshToken: b.refreshToken,
    accessExpiresAt: now + expiresIn * 1000,
  };
}

/** One JSON request; network failures become CliFailure SERVER_UNREACHABLE. */
export async function send(
  fetchImpl: typeof fetch,
  url: string,
  method: string,
  path: string,
  body?: unknown,
  accessToken?: string,
  extraHeaders: Record<string, string> = {},
): Promise<ServerAnswer> {
  const headers: Record<string, string> = { accept: "application/json", ...extraHeaders };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  let response: Response;
  try {
    response = await fetchImpl(`${url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliFailure(`Cannot reach ${url}: ${(error as Error).message}`, "SERVER_UNREACHABLE");
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}

/** The server's stable code of an error answer, if it has one. */
export function codeOf(answer: ServerAnswer): string | undefined {
  const b = answer.body as Record<string, unknown> | undefined;
  return typeof b?.code === "string" ? b.code : undefined;
}

/** A CliFailure that carries the server's code and message. */
export function failureOf(answer: ServerAnswer): CliFailure {
  const b = (answer.body ?? {}) as Record<string, unknown>;
  const message = typeof b.message === "string" ? b.message : `The server answered ${answer.status}`;
  return new CliFailure(message, codeOf(answer) ?? `HTTP_${answer.status}`);
}

function isTokenRefusal(answer: ServerAnswer): boolean {
  const code = codeOf(answer);
  return (
    code === undefined ||
    code === "INVALID_TOKEN" ||
    code === "TOKEN_EXPIRED" ||
    code === "AUTHENTICATION_REQUIRED"
  );
}
