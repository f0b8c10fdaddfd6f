import type { DependencyContainer, InjectionToken } from "tsyringe";
import type { ChainRoute } from "./chain-route.js";

/**
 * A feature's routes for the signed-in user, served on every chain as `/api/me` is (a plugin factor's
 * enrolment: `/api/account/factors/totp`). A family: members are read when each chain is assembled.
 */
export interface AccountRouteSource {
  readonly id: string;
  routes(): ChainRoute[];
}

/** DI token of the AccountRouteSource family. */
export const AccountRouteSource: InjectionToken<AccountRouteSource> = Symbol.for(
  "platform.AccountRouteSource",
);

/** Every member's routes (none without a container or members). */
export function accountRoutesOf(container: DependencyContainer | undefined): ChainRoute[] {
  if (!container?.isRegistered(AccountRouteSource, true)) return [];
  return container.resolveAll(AccountRouteSource).flatMap((source) => source.routes());
}
