import type { TokenPairAnswer, TokenRefreshBody } from "@keyward/core/wire";
import { CliFailure } from "../command-line/cli-command.js";
import { type CredentialsFile, normaliseServerUrl, type ServerCredentials } from "./credentials-file.js";
import { readServerAnswer, type ServerAnswer } from "./read-server-answer.js";
import { sameOriginUrl } from "./server-path.js";

/** Refresh this long before the access token expires, so a call never starts with a dying token. */
const REFRESH_MARGIN_MS = 30_000;
/** Longest wait for one server call. */
const TIMEOUT_MS = 30_000;
/** Longest access-token life believed; a longer (or absurd) `expiresIn` only makes refreshes earlier. */
const MAX_EXPIRES_IN_S = 86_400;
/** Longest server message printed; the rest is cut. */
const MAX_MESSAGE_CHARS = 300;
/** What a server's error code must look like to be printed as one (`MFA_SESSION_EXPIRED`). */
const SERVER_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

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

  /**
   * Sends one JSON request; resolves with 2xx answers (and those of `options.alsoResolve`, such as a
   * 422 whose body is a receipt the command prints), throws a CliFailure with the server's code otherwise.
   */
  async call(
    method: string,
    path: string,
    body?: unknown,
    options: { alsoResolve?: readonly number[] } = {},
  ): Promise<ServerAnswer> {
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
    if (options.alsoResolve?.includes(answer.status)) return answer;
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
  const expiresIn =
    typeof b.expiresIn === "number" && b.expiresIn > 0 ? Math.min(b.expiresIn, MAX_EXPIRES_IN_S) : 300;
  return {
    username,
    accessToken: b.accessToken,
    refreshToken: b.refreshToken,
    accessExpiresAt: now + expiresIn * 1000,
  };
}

/**
 * One JSON request to `path` on the server `url` (an origin): the path must be a same-origin
 * absolute path (`sameOriginUrl`, SERVER_PATH_REFUSED), redirects are not followed, and the answer
 * is read within a size cap with every string made plain text (`readServerAnswer`). Network
 * failures become CliFailure SERVER_UNREACHABLE.
 */
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
  const target = sameOriginUrl(url, path);
  let response: Response;
  try {
    response = await fetchImpl(target, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliFailure(`Cannot reach ${url}: ${(error as Error).message}`, "SERVER_UNREACHABLE");
  }
  return readServerAnswer(response, url);
}

/** The server's stable code of an error answer, if it has one that looks like a code (UPPER_SNAKE). */
export function codeOf(answer: ServerAnswer): string | undefined {
  const b = answer.body as Record<string, unknown> | undefined;
  return typeof b?.code === "string" && SERVER_CODE.test(b.code) ? b.code : undefined;
}

/** A CliFailure that carries the server's code and message. */
export function failureOf(answer: ServerAnswer): CliFailure {
  const b = (answer.body ?? {}) as Record<string, unknown>;
  const text = typeof b.message === "string" ? b.message.trim() : "";
  const message = text ? text.slice(0, MAX_MESSAGE_CHARS) : `The server answered ${answer.status}`;
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
