import { AsyncLocalStorage } from "node:async_hooks";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { HttpInterceptor } from "../../web/http-interceptor.js";
import { currentAuthentication } from "../../identity/authentication/authentication.js";

/**
 * The caller of the code running now, for services that have no request in hand (method
 * protection). Holds a getter, not a value, so a login during the request is seen at once.
 */
export class SecurityContextHolder {
  private readonly storage = new AsyncLocalStorage<() => Authentication | undefined>();

  /** Runs `fn` with `authentication` (or a getter of it) as the current caller. */
  run<T>(authentication: Authentication | undefined | (() => Authentication | undefined), fn: () => T): T {
    const getter = typeof authentication === "function" ? authentication : () => authentication;
    return this.storage.run(getter, fn);
  }

  /** The current caller; undefined outside `run` or for anonymous requests. */
  current(): Authentication | undefined {
    return this.storage.getStore()?.();
  }

  /**
   * An HTTP interceptor that makes the request's authentication current for the route (place it
   * after the security filter-chain proxy).
   */
  interceptor(): HttpInterceptor {
    return {
      intercept: (exchange: HttpExchange, next: () => Promise<void>) =>
        this.run(() => currentAuthentication(exchange), next),
    };
  }
}
