import type { Platform } from "@keyward/core";
import { FilterChainProxy } from "@keyward/core/identity";
import { type Logger, UserRepository } from "@keyward/core/ports";
import { PlatformError } from "@keyward/core/errors";
import {
  contributedSteps,
  type HttpInterceptor,
  type PipelineContribution,
  type PipelineStep,
  RequestPipeline,
} from "@keyward/core/web";
import type { RouteRegistry } from "./route-registry.js";

/** What the host adds to the platform's request pipeline (createHttpApp's options). */
export interface HostPipelineSteps {
  /** Steps at named places: `{ before: "authorization", step }`, `{ after: "authentication", step }`. */
  steps?: readonly PipelineContribution[];
  /** Interceptors: around steps placed before `handler`, in order (after every plugin's). */
  interceptors?: readonly HttpInterceptor[];
}

/**
 * The request pipeline of one HTTP app: every plugin's steps (identity's firewall, chain,
 * authentication, checkpoint, entry and authorization; authz's caller context), the host's steps,
 * its interceptors just before the route, and the route itself at `handler`. The platform's own
 * FilterChainProxy given as an interceptor is dropped: its steps are in the pipeline already. A
 * pipeline without identity's steps and with nothing from the host logs a warning: every route
 * answers unprotected.
 */
export function assembleHttpPipeline(
  platform: Platform,
  routes: RouteRegistry,
  host: HostPipelineSteps,
  logger: Logger,
): RequestPipeline {
  const assembly = {
    container: platform.container,
    // Bound, not wrapped: a request runs no extra function to ask it.
    needsCallerContext: routes.needsCallerContext.bind(routes),
  };
  const contributed = contributedSteps(platform.container, assembly);
  const secured = contributed.some((c) => "at" in c && c.at === "firewall");
  const proxy =
    secured && platform.container.isRegistered(FilterChainProxy, true)
      ? platform.resolve(FilterChainProxy)
      : undefined;
  const interceptors = (host.interceptors ?? []).filter((i) => i !== proxy);
  const hostSteps = [...(host.steps ?? []), ...interceptors.map(interceptorStep)];
  if (!secured && platform.container.isRegistered(UserRepository, true))
    // Users without the identity module: nobody can sign in and nothing is protected, silently.
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      "createHttpApp: a UserRepository is registered but the identity module is not installed, so nobody can sign in and no route is protected: add createIdentityPlugin({ security }) (from @keyward/core) to the platform's plugins",
    );
  if (!secured && hostSteps.length === 0) {
    logger.warn(
      "createHttpApp: the platform has no security steps (no identity module) and no interceptor is installed: every route answers without authentication, authorization, CSRF or the request firewall",
      {},
    );
  }
  return new RequestPipeline([...contributed, ...hostSteps, { at: "handler", step: routes.handlerStep() }]);
}

function interceptorStep(interceptor: HttpInterceptor, index: number): PipelineContribution {
  const name = (interceptor as { name?: unknown }).name;
  const step: PipelineStep = {
    name: typeof name === "string" ? name : `interceptor-${index + 1}`,
    around: (exchange, next) => interceptor.intercept(exchange, () => next(exchange)),
  };
  return { before: "handler", step };
}
