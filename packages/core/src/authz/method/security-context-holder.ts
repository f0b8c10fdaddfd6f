import { AsyncLocalStorage } from "node:async_hooks";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { HttpInterceptor } from "../../web/http-interceptor.js";
import type { PipelineStep, RequestPipelineContributor } from "../../web/request-pipeline.js";
import { currentAuthentication } from "../../identity/authentication/authentication.js";

/**
 * One `run`: whose caller it is (a getter, or the request whose authentication is read), and whether
 * `fn` is still running (or its promise pending).
 */
interface Scope {
  readonly caller: (() => Authentication | undefined) | undefined;
  readonly exchange: HttpExchange | undefined;
  open: boolean;
}

/** The scope of a request the interceptor skips: nobody is the caller. */
const NO_CALLER: Scope = { caller: undefined, exchange: undefined, open: false };

/** Options of `SecurityContextHolder.interceptor`. */
export interface SecurityContextInterceptorOptions {
  /**
   * Whether the request may reach a `@Protectable` method (default: every request may). A request
   * for which it answers false runs with no caller current, as code outside any request does, and
   * does not turn on async-context tracking.
   */
  when?: (exchange: HttpExchange) => boolean;
}

/**
 * The caller of the code running now, for services that have no request in hand (method
 * protection). Holds a getter, not a value, so a login during the request is seen at once.
 *
 * The caller is current while `fn` runs and, when it returns a promise, until that promise settles;
 * work it leaves running after that sees no caller. The async-context store is enabled only while a
 * `run` is open: on Node 20 an enabled `AsyncLocalStorage` tracks every promise of the process, so a
 * process whose requests reach no protected method pays nothing for it.
 */
export class SecurityContextHolder {
  private readonly storage = new AsyncLocalStorage<Scope>();
  private openScopes = 0;

  /** Runs `fn` with `authentication` (or a getter of it) as the current caller. */
  run<T>(authentication: Authentication | undefined | (() => Authentication | undefined), fn: () => T): T {
    const caller = typeof authentication === "function" ? authentication : () => authentication;
    return this.scoped({ caller, exchange: undefined, open: true }, fn, undefined);
  }

  /** The current caller; undefined outside `run`, after it ended, or for anonymous requests. */
  current(): Authentication | undefined {
    const scope = this.storage.getStore();
    if (!scope?.open) return undefined;
    return scope.exchange !== undefined ? currentAuthentication(scope.exchange) : scope.caller?.();
  }

  /** Whether async-context tracking is on now: true exactly while some `run` is open. */
  get tracking(): boolean {
    return this.openScopes > 0;
  }

  /**
   * An HTTP interceptor that makes the request's authentication current for the route (place it
   * after the security filter-chain proxy).
   */
  interceptor(options: SecurityContextInterceptorOptions = {}): HttpInterceptor {
    const { when } = options;
    return {
      intercept: (exchange: HttpExchange, next: () => Promise<void>) => {
        if (!when || when(exchange)) return this.run(() => currentAuthentication(exchange), next);
        // While another request holds a scope the store is enabled; an empty scope keeps any store
        // this request's code could inherit from that request out of its reach.
        return this.openScopes > 0 ? this.storage.run(NO_CALLER, next) : next();
      },
    };
  }

  /**
   * The same as a request pipeline step (authz places it just before `handler`): the caller is
   * current for the route when `when` says the route may call a protected method.
   */
  pipelineStep(when: (exchange: HttpExchange) => boolean): PipelineStep {
    return {
      name: "caller-context",
      // The scope reads the exchange's authentication when asked: no getter made per request.
      // `scoped` and `close`, inline (this runs on every request that may reach a protected method):
      // `next` always answers a promise, and the scope closes when it settles.
      around: (exchange, next) => {
        if (!when(exchange)) {
          return this.openScopes > 0 ? this.storage.run(NO_CALLER, next, exchange) : next(exchange);
        }
        const scope: Scope = { caller: undefined, exchange, open: true };
        this.openScopes++;
        let result: Promise<void>;
        try {
          result = this.storage.run(scope, next, exchange);
        } catch (error) {
          this.close(scope);
          throw error;
        }
        // Closed when the route's promise settles: one `then` (a `finally` makes two more promises),
        // its callbacks unnamed (a named closure per request costs a name to set under some
        // transpilers) and `close` inline on the way through.
        return result.then(
          () => {
            if (!scope.open) return;
            scope.open = false;
            if (--this.openScopes === 0) this.storage.disable();
          },
          (error: unknown) => {
            this.close(scope);
            throw error;
          },
        );
      },
    };
  }

  // `fn(arg)` inside `scope`, closing it when `fn` returns or its promise settles.
  private scoped<A, T>(scope: Scope, fn: (arg: A) => T, arg: A): T {
    this.openScopes++;
    let result: T;
    try {
      result = this.storage.run(scope, fn, arg);
    } catch (error) {
      this.close(scope);
      throw error;
    }
    if (!(result instanceof Promise)) {
      this.close(scope);
      return result;
    }
    return result.then(
      (value: unknown) => {
        this.close(scope);
        return value;
      },
      (error: unknown) => {
        this.close(scope);
        throw error;
      },
    ) as T;
  }

  private close(scope: Scope): void {
    if (!scope.open) return;
    scope.open = false;
    if (--this.openScopes === 0) this.storage.disable();
  }
}

/**
 * Authorization's share of the request pipeline: the platform's SecurityContextHolder makes the
 * caller current just before the route, on requests whose route may call a `@Protectable` service
 * (the binding tells: not `/health`, the SDK's assets, a 404 or a route with `callerContext: false`).
 */
export const callerContextContributor: RequestPipelineContributor = {
  id: "authz.caller-context",
  contribute: ({ container, needsCallerContext }) => [
    {
      before: "handler",
      step: container.resolve(SecurityContextHolder).pipelineStep(needsCallerContext),
    },
  ],
};
