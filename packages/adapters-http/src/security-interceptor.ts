import type { Platform } from "@platform/core";
import { PlatformError } from "@platform/core/errors";
import { FilterChainProxy } from "@platform/core/identity";
import { type Logger, UserRepository } from "@platform/core/ports";
import type { HttpInterceptor } from "@platform/core/web";

/** How createHttpApp installs the security filter-chain proxy. */
export type SecurityChainsMode = "auto" | false;

/**
 * The interceptor list createHttpApp runs: with the identity module present (its UserRepository is
 * registered) and `mode` "auto", the platform's FilterChainProxy goes first unless the host listed
 * it already; it is resolved at the first request, so an app built before `platform.start()` still
 * gets it, and a request that arrives before start fails closed (500, never an unprotected 200).
 * With `mode` false and no other interceptor, a warning says that every route is unprotected.
 */
export function securityInterceptors(
  platform: Platform,
  given: readonly HttpInterceptor[],
  mode: SecurityChainsMode,
  logger: Logger,
): HttpInterceptor[] {
  const identity = platform.container.isRegistered(UserRepository, true);
  const built = platform.container.isRegistered(FilterChainProxy, true)
    ? platform.resolve(FilterChainProxy)
    : undefined;
  const listed = given.some((i) => i === built || (i as { name?: string }).name === LAZY_PROXY_NAME);
  if (mode === false) {
    if (given.length === 0) {
      logger.warn(
        "createHttpApp: securityChains is false and no interceptor is installed: every route answers without authentication, authorization, CSRF or the request firewall",
        {},
      );
    }
    return [...given];
  }
  if (!identity || listed) return [...given];
  return [lazyChainProxy(platform), ...given];
}

const LAZY_PROXY_NAME = "security-filter-chains";

function lazyChainProxy(platform: Platform): HttpInterceptor & { name: string } {
  let proxy: FilterChainProxy | undefined;
  return {
    name: LAZY_PROXY_NAME,
    intercept(exchange, next) {
      if (!proxy) {
        if (!platform.container.isRegistered(FilterChainProxy, true)) {
          throw new PlatformError(
            "CONFIGURATION_INVALID",
            "The security filter chains are not built yet: call platform.start() before serving requests",
          );
        }
        proxy = platform.resolve(FilterChainProxy);
      }
      return proxy.intercept(exchange, next);
    },
  };
}
