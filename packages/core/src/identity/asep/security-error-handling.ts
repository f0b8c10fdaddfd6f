import { PlatformError } from "../../kernel/platform-error.js";
import { errorCatalogOf } from "../../web/exchange-error-catalog.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { currentAuthentication } from "../authentication/authentication.js";

/** What argument resolvers and handlers see: the error and the request it happened in. */
export interface SecurityErrorContext {
  error: PlatformError;
  exchange: HttpExchange;
}

/** Resolves one named handler argument (`principal`, `header:X-Id`, ...), or declines. */
export interface ArgumentResolver {
  supports(name: string): boolean;
  resolve(name: string, context: SecurityErrorContext): unknown | Promise<unknown>;
}

/** Writes a handler's result into the response, or declines (then the next writer is asked). */
export interface ResultWriter {
  supports(result: unknown): boolean;
  write(result: unknown, context: SecurityErrorContext): void | Promise<void>;
}

/** A host's handler for security errors of one chain, registered with the DSL's `asep(...)` (ASEP). */
export interface SecurityErrorHandler {
  /** Error codes it handles (any, when absent and no `matches`). */
  errorCodes?: readonly string[];
  /** A finer predicate over the error. */
  matches?(error: PlatformError): boolean;
  /** Lower runs first (default 0); equal priorities keep registration order. */
  priority?: number;
  /** Media types it produces; it is chosen only when the client accepts one (default any). */
  produces?: readonly string[];
  /** Names of the arguments to resolve, in order (default `["error"]`). */
  parameters?: readonly string[];
  /** Returns a result for the writers; `undefined` means "not handled", the default answer follows. */
  handle(...args: unknown[]): unknown | Promise<unknown>;
}

/** A `{ status, body, headers }` result, like a response entity. */
export interface ErrorResponseEntity {
  status: number;
  body?: Record<string, unknown> | string;
  headers?: Record<string, string>;
}

/** The built-in argument resolvers: error, exchange, authentication, principal, header:, cookie:, attribute:. */
export const DEFAULT_ARGUMENT_RESOLVERS: readonly ArgumentResolver[] = [
  { supports: (n) => n === "error", resolve: (_n, c) => c.error },
  { supports: (n) => n === "exchange", resolve: (_n, c) => c.exchange },
  { supports: (n) => n === "authentication", resolve: (_n, c) => currentAuthentication(c.exchange) },
  { supports: (n) => n === "principal", resolve: (_n, c) => currentAuthentication(c.exchange)?.username },
  { supports: (n) => n.startsWith("header:"), resolve: (n, c) => c.exchange.header(n.slice(7)) },
  { supports: (n) => n.startsWith("cookie:"), resolve: (n, c) => c.exchange.cookie(n.slice(7)) },
  { supports: (n) => n.startsWith("attribute:"), resolve: (n, c) => c.exchange.attributes.get(n.slice(10)) },
];

/** The built-in result writers: a response entity, a JSON object, or text. */
export const DEFAULT_RESULT_WRITERS: readonly ResultWriter[] = [
  {
    supports: (r) =>
      typeof r === "object" && r !== null && typeof (r as ErrorResponseEntity).status === "number",
    write: (r, c) => {
      const entity = r as ErrorResponseEntity;
      for (const [k, v] of Object.entries(entity.headers ?? {}))
        c.exchange.response.headers.set(k.toLowerCase(), v);
      if (typeof entity.body === "string") writeText(c.exchange, entity.status, entity.body);
      else c.exchange.json(entity.status, entity.body ?? {});
    },
  },
  {
    supports: (r) => typeof r === "object" && r !== null,
    write: (r, c) => c.exchange.json(statusOf(c), r as Record<string, unknown>),
  },
  {
    supports: (r) => typeof r === "string",
    write: (r, c) => writeText(c.exchange, statusOf(c), r as string),
  },
];

function writeText(exchange: HttpExchange, status: number, text: string): void {
  exchange.response.status = status;
  exchange.response.headers.set("content-type", "text/plain; charset=utf-8");
  exchange.response.body = text;
  exchange.response.committed = true;
}

function statusOf(c: { exchange: HttpExchange; error: PlatformError }): number {
  return errorCatalogOf(c.exchange).statusOfError(c.error);
}

/**
 * One chain's security error handling (ASEP): host handlers chosen by code, predicate, priority and
 * produced media type, with pluggable argument resolvers and result writers.
 */
export class SecurityErrorHandling {
  constructor(
    private readonly handlers: readonly SecurityErrorHandler[],
    private readonly resolvers: readonly ArgumentResolver[],
    private readonly writers: readonly ResultWriter[],
  ) {}

  /** True when some host handler answered; false leaves the default answer to the caller. */
  async handle(error: PlatformError, exchange: HttpExchange): Promise<boolean> {
    const context: SecurityErrorContext = { error, exchange };
    const candidates = this.handlers
      .map((h, i) => ({ h, i }))
      .filter(
        ({ h }) => (h.errorCodes ? h.errorCodes.includes(error.code) : true) && (h.matches?.(error) ?? true),
      )
      .filter(({ h }) => accepts(exchange, h.produces))
      .sort((a, b) => (a.h.priority ?? 0) - (b.h.priority ?? 0) || a.i - b.i);
    for (const { h } of candidates) {
      const args = await Promise.all((h.parameters ?? ["error"]).map((name) => this.resolve(name, context)));
      const result = await h.handle(...args);
      if (result === undefined) continue;
      const writer = this.writers.find((w) => w.supports(result));
      if (!writer)
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          "No result writer supports the ASEP handler's result",
        );
      await writer.write(result, context);
      return true;
    }
    return false;
  }

  private resolve(name: string, context: SecurityErrorContext): unknown {
    const resolver = this.resolvers.find((r) => r.supports(name));
    if (!resolver)
      throw new PlatformError("CONFIGURATION_INVALID", `No argument resolver for ASEP parameter "${name}"`);
    return resolver.resolve(name, context);
  }
}

function accepts(exchange: HttpExchange, produces: readonly string[] | undefined): boolean {
  if (!produces || produces.length === 0) return true;
  const accept = exchange.header("accept") ?? "*/*";
  const wanted = accept.split(",").map((p) => p.split(";")[0]!.trim().toLowerCase());
  return produces.some((type) =>
    wanted.some((w) => w === "*/*" || w === type || (w.endsWith("/*") && type.startsWith(w.slice(0, -1)))),
  );
}

/** The `asep(customizer)` builder of each DSL method: handlers, argument resolvers, result writers. */
export class AsepAttributes {
  readonly handlers: SecurityErrorHandler[] = [];
  readonly argumentResolvers: ArgumentResolver[] = [];
  readonly resultWriters: ResultWriter[] = [];

  /** Adds a security error handler for this chain. */
  handler(handler: SecurityErrorHandler): this {
    this.handlers.push(handler);
    return this;
  }
  /** Adds an argument resolver (asked before the built-in ones). */
  argumentResolver(resolver: ArgumentResolver): this {
    this.argumentResolvers.push(resolver);
    return this;
  }
  /** Adds a result writer (asked before the built-in ones). */
  resultWriter(writer: ResultWriter): this {
    this.resultWriters.push(writer);
    return this;
  }

  /** The chain's error handling. */
  toHandling(): SecurityErrorHandling {
    return new SecurityErrorHandling(
      this.handlers,
      [...this.argumentResolvers, ...DEFAULT_ARGUMENT_RESOLVERS],
      [...this.resultWriters, ...DEFAULT_RESULT_WRITERS],
    );
  }
}
